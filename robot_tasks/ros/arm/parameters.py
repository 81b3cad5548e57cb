"""The arm_server's ROS parameters: declared with robot-specific defaults, read once.

`robot` (panda | ur10) is read first and picks the defaults of the others
(settings.ROBOT_DEFAULTS); each can still be set on its own. A bad value raises
SettingsError naming the parameter, and the node exits with that message.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

from rcl_interfaces.msg import ParameterDescriptor

from robot_tasks.control.motion_request import FrameMap, MotionDefaults
from robot_tasks.ros.arm.motion_planner import PlannerSettings
from robot_tasks.ros.arm.settings import (SettingsError, obstacles_in_base, pose_from_list,
                                          robot_defaults)

DEFAULT_CONTROLLER_TOPIC = "joint_trajectory_controller/joint_trajectory"


@dataclass
class ArmServerConfig:
    robot: str
    joint_names: list
    base_frame: str
    tip_frame: str
    frames: FrameMap
    obstacles: list
    package_dirs: list
    collision_padding: float
    defaults: MotionDefaults
    planner: PlannerSettings
    controller_topic: str
    settle_timeout: float      # s (node clock) after the trajectory's end to reach tolerance
    joint_state_timeout: float # wall s: older joint_states count as missing
    startup_wait: float        # wall s a goal waits for the first joint_states/description
    feedback_rate: float       # Hz
    stop_mode: str             # "empty" (no-point trajectory) | "hold_point"
    stop_time: float           # s: time_from_start of the hold point (stop_mode hold_point)


def _coerce(name: str, value, default):
    """`value` in the type of `default` (ints accepted for floats), else SettingsError."""
    def number(v):
        if isinstance(v, bool) or not isinstance(v, (int, float)):
            raise SettingsError(f"parameter '{name}' must be a number, got {value!r}")
        return float(v)

    if isinstance(default, bool):
        if not isinstance(value, bool):
            raise SettingsError(f"parameter '{name}' must be true or false, got {value!r}")
        return value
    if isinstance(default, int):
        if isinstance(value, bool) or not isinstance(value, int):
            raise SettingsError(f"parameter '{name}' must be an integer, got {value!r}")
        return value
    if isinstance(default, float):
        return number(value)
    if isinstance(default, str):
        if not isinstance(value, str):
            raise SettingsError(f"parameter '{name}' must be a string, got {value!r}")
        return value
    if not isinstance(value, (list, tuple)):
        raise SettingsError(f"parameter '{name}' must be a list, got {value!r}")
    if default and isinstance(default[0], str):
        if not all(isinstance(v, str) for v in value):
            raise SettingsError(f"parameter '{name}' must be a list of strings, got {value!r}")
        return list(value)
    return [number(v) for v in value]


def declare_typed(node, name: str, default, description: str = ""):
    """Declare a parameter that accepts 1 as well as 1.0 (dynamic typing), then check its
    value against the default's type: a wrong type is a SettingsError naming it."""
    descriptor = ParameterDescriptor(description=description, dynamic_typing=True)
    return _coerce(name, node.declare_parameter(name, default, descriptor).value, default)


_declare = declare_typed


def _positive(name, value, allow_zero=False):
    value = float(value)
    if not math.isfinite(value) or value < 0 or (value == 0 and not allow_zero):
        raise SettingsError(f"parameter '{name}' must be a positive number, got {value}")
    return value


def declare_arm_parameters(node) -> ArmServerConfig:
    robot = _declare(node, "robot", "panda", "panda | ur10: picks the defaults below")
    d = robot_defaults(robot)
    joints = list(_declare(node, "joint_names", d["joint_names"], "arm joints, base to tip"))
    base = _declare(node, "base_frame", d["base_frame"], "URDF frame the arm is planned in")
    tip = _declare(node, "tip_frame", d["tip_frame"], "URDF frame MoveToPose moves")
    world_T_base = pose_from_list(_declare(node, "world_T_base", d["world_T_base"],
                                           "base pose in world: x y z qx qy qz qw"),
                                  "world_T_base")
    frames = FrameMap(base, world_T_base)
    obstacles = obstacles_in_base(
        _declare(node, "obstacle_names", d["obstacle_names"], "box obstacles for PLANNED"),
        _declare(node, "obstacle_sizes", d["obstacle_sizes"], "3 edge lengths per box [m]"),
        _declare(node, "obstacle_poses", d["obstacle_poses"], "7 per box, world frame"),
        frames)
    package_dirs = [p for p in _declare(node, "package_dirs", [""],
                                        "dirs for package:// collision meshes") if p]
    defaults = MotionDefaults(
        position_tolerance=_positive("position_tolerance",
                                     _declare(node, "position_tolerance", 0.005, "m")),
        orientation_tolerance=_positive("orientation_tolerance",
                                        _declare(node, "orientation_tolerance", 0.02, "rad")),
        joint_tolerance=_positive("joint_tolerance", _declare(node, "joint_tolerance", 0.005,
                                                              "rad or m (MoveToJoints)")),
        velocity_scaling=_positive("velocity_scaling",
                                   _declare(node, "velocity_scaling", 0.5, "(0, 1]")),
        timeout=_positive("goal_timeout", _declare(node, "goal_timeout", 30.0, "s")))
    if defaults.velocity_scaling > 1.0:
        raise SettingsError("parameter 'velocity_scaling' must be in (0, 1]")
    planner = PlannerSettings(
        ik_method=_declare(node, "ik_method", "dls", "pinv | dls | trans | svd | adaptive_dls"),
        ik_restarts=int(_declare(node, "ik_restarts", 8, "random IK restarts")),
        max_dq=_positive("max_dq", _declare(node, "max_dq", 0.006, "rad between points")),
        min_steps=int(_declare(node, "min_steps", 40, "points of the shortest trajectory")),
        ramp_time=_positive("ramp_time", _declare(node, "ramp_time", 0.2, "s"), True),
        planning_time=_positive("planning_time", _declare(node, "planning_time", 2.0, "s")),
        cartesian_step=_positive("cartesian_step",
                                 _declare(node, "cartesian_step", 0.005, "m")))
    from robot_tasks.control import IK_METHODS
    if planner.ik_method not in IK_METHODS:
        raise SettingsError(f"parameter 'ik_method': '{planner.ik_method}' is not one of "
                            f"{list(IK_METHODS)}")
    return ArmServerConfig(
        robot=robot, joint_names=joints, base_frame=base, tip_frame=tip, frames=frames,
        obstacles=obstacles, package_dirs=package_dirs,
        collision_padding=_positive("collision_padding",
                                    _declare(node, "collision_padding", 0.01, "m"), True),
        defaults=defaults, planner=planner,
        controller_topic=_declare(node, "controller_topic", DEFAULT_CONTROLLER_TOPIC,
                                  "where whole JointTrajectory messages go"),
        settle_timeout=_positive("settle_timeout", _declare(node, "settle_timeout", 2.0, "s")),
        joint_state_timeout=_positive("joint_state_timeout",
                                      _declare(node, "joint_state_timeout", 1.0, "wall s")),
        startup_wait=_positive("startup_wait", _declare(node, "startup_wait", 5.0, "wall s")),
        feedback_rate=_positive("feedback_rate", _declare(node, "feedback_rate", 10.0, "Hz")),
        stop_mode=_stop_mode(_declare(node, "stop_mode", "empty", "empty | hold_point")),
        stop_time=_positive("stop_time", _declare(node, "stop_time", 0.0, "s"), True))


def _stop_mode(value: str) -> str:
    if value not in ("empty", "hold_point"):
        raise SettingsError(f"parameter 'stop_mode' must be 'empty' or 'hold_point', got {value!r}")
    return value
