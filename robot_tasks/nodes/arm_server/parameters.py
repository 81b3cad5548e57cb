"""The arm_server's ROS parameters: declared with robot-specific defaults, read once.

`robot` (panda | ur10) is read first and picks the defaults of the others
(robot_tasks.control.robot_defaults.ROBOT_DEFAULTS); each can still be set on its own.
Every other default is written here, in its declaration, and nowhere else. A bad value
raises ParameterError naming the node and the parameter; the node exits 2 with it.
"""
from __future__ import annotations

from dataclasses import dataclass

from robot_tasks.control import IK_METHODS
from robot_tasks.control.errors import InputError
from robot_tasks.control.joint_limits import default_limits_path, load_limits_file
from robot_tasks.control.motion_pipeline import PlannerSettings
from robot_tasks.control.motion_request import FrameMap, MotionDefaults
from robot_tasks.control.robot_defaults import obstacles_in_base, pose_from_list, robot_defaults
from robot_tasks.ros.parameters import ParameterError, declare

DEFAULT_CONTROLLER_ACTION = "joint_trajectory_controller/follow_joint_trajectory"


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
    controller_action: str     # the joint_trajectory_controller's FollowJointTrajectory action
    speed_scaling_topic: str   # the robot's speed scaling in percent (std_msgs/Float64); "" = none
    settle_timeout: float      # s (node clock) after the controller's success to reach our tolerance
    joint_state_timeout: float # wall s: older joint_states count as missing
    startup_wait: float        # wall s a goal waits for the first joint_states/description
    feedback_rate: float       # Hz


def _joint_limits(node, robot: str):
    """The limits file's JointLimits for time-optimal timing, or None for the old
    velocity-only timing (trajectory_timing: velocity_ramp)."""
    timing = declare(node, "trajectory_timing", "time_optimal",
                     "time_optimal: TOPP-RA/Ruckig under velocity, acceleration and jerk limits; "
                     "velocity_ramp: the old velocity-only timing with ramp_time",
                     choices=("time_optimal", "velocity_ramp"))
    path = declare(node, "limits_file", "",
                   "YAML with acceleration and jerk limits per joint; '' = config/limits/<robot>.yaml")
    if timing != "time_optimal":
        return None
    try:
        return load_limits_file(path or default_limits_path(robot))
    except InputError as err:
        raise ParameterError("limits_file", str(err), node=node.get_name()) from None


def declare_arm_parameters(node) -> ArmServerConfig:
    robot = declare(node, "robot", "panda", "picks the defaults below", choices=("panda", "ur10"))
    d = robot_defaults(robot)
    joints = declare(node, "joint_names", d["joint_names"], "arm joints, base to tip")
    base = declare(node, "base_frame", d["base_frame"], "URDF frame the arm is planned in",
                   allow_empty=False)
    tip = declare(node, "tip_frame", d["tip_frame"], "URDF frame MoveToPose moves", allow_empty=False)
    world_T_base = pose_from_list(declare(node, "world_T_base", d["world_T_base"],
                                          "base pose in world: x y z qx qy qz qw", length=7),
                                  "world_T_base")
    frames = FrameMap(base, world_T_base)
    obstacles = obstacles_in_base(
        declare(node, "obstacle_names", d["obstacle_names"], "static box obstacles for PLANNED (run-time ones: the planning_obstacles topic)"),
        declare(node, "obstacle_sizes", d["obstacle_sizes"], "3 edge lengths per box [m]"),
        declare(node, "obstacle_poses", d["obstacle_poses"], "7 per box, world frame"),
        frames)
    package_dirs = [p for p in declare(node, "package_dirs", [""], "dirs for package:// collision meshes") if p]

    def positive(name, default, unit, **bounds):
        return declare(node, name, default, unit, minimum=0.0, open_minimum=True, **bounds)

    defaults = MotionDefaults(
        position_tolerance=positive("position_tolerance", 0.005, "m"),
        orientation_tolerance=positive("orientation_tolerance", 0.02, "rad"),
        joint_tolerance=positive("joint_tolerance", 0.005, "rad or m (MoveToJoints)"),
        velocity_scaling=positive("velocity_scaling", 0.5, "fraction of the URDF velocity limits",
                                  maximum=1.0),
        timeout=positive("goal_timeout", 30.0, "s"),
        max_dq=positive("bounded_max_dq", 0.006, "rad per command step of a BOUNDED goal that sets none"),
        min_steps=declare(node, "bounded_min_steps", 40, "steps of a BOUNDED goal that sets none",
                          minimum=1))
    planner = PlannerSettings(
        ik_method=declare(node, "ik_method", "dls", "differential IK variant", choices=tuple(IK_METHODS)),
        ik_restarts=declare(node, "ik_restarts", 8, "random IK restarts", minimum=0),
        max_dq=positive("max_dq", 0.006, "rad between trajectory points"),
        min_steps=declare(node, "min_steps", 40, "points of the shortest trajectory", minimum=2),
        ramp_time=declare(node, "ramp_time", 0.2, "s of speed ramp (trajectory_timing velocity_ramp only)",
                          minimum=0.0),
        planning_time=positive("planning_time", 2.0, "s for RRT-Connect"),
        cartesian_step=positive("cartesian_step", 0.005, "m between Cartesian waypoints"),
        command_period=positive("command_period", 1.0 / 240.0,
                                "s: the trajectory controller's control step (a BOUNDED step lasts >= this)"),
        bounded_hold_time=declare(node, "bounded_hold_time", 0.2, "s a BOUNDED motion holds its goal",
                                  minimum=0.0),
        joint_limits=_joint_limits(node, robot),
        acceleration_scaling=positive("acceleration_scaling", 0.5,
                                      "fraction of the acceleration limits (MoveIt's name)", maximum=1.0),
        sample_period=positive("trajectory_sample_period", 0.01,
                               "s between the points of a time-optimal trajectory"))
    return ArmServerConfig(
        robot=robot, joint_names=joints, base_frame=base, tip_frame=tip, frames=frames,
        obstacles=obstacles, package_dirs=package_dirs,
        collision_padding=declare(node, "collision_padding", 0.01, "m", minimum=0.0),
        defaults=defaults, planner=planner,
        controller_action=declare(node, "controller_action", DEFAULT_CONTROLLER_ACTION,
                                  "the joint_trajectory_controller's control_msgs/FollowJointTrajectory "
                                  "action", allow_empty=False),
        speed_scaling_topic=declare(node, "speed_scaling_topic", "",
                                    "std_msgs/Float64, percent: the robot's speed scaling (a UR: "
                                    "speed_scaling_state_broadcaster/speed_scaling); goal timeouts "
                                    "run on trajectory time; '' = the robot always runs at full speed"),
        settle_timeout=positive("settle_timeout", 2.0,
                                "s after the controller reports success for the measured pose to "
                                "come within this server's tolerance"),
        joint_state_timeout=positive("joint_state_timeout", 1.0, "wall s"),
        startup_wait=positive("startup_wait", 5.0, "wall s"),
        feedback_rate=positive("feedback_rate", 10.0, "Hz"))
