"""A CompliantMove goal -> a checked move, or the reason it is INVALID_GOAL.

Every number is checked before anything moves: a NaN or infinite pose, wrench or time,
a zero or unnormalized quaternion, a frame the server does not know, a controller the arm
does not have (or one that takes no target pose), a stiffness of the wrong length or
outside the limits. The reason names the field, e.g. "stiffness[2] = 5000 is outside its
limits [0, 1000]".

What a controller can take follows from its type in list_controllers — the interfaces of
FZI's cartesian controllers (cartesian_controllers, ros2 branch):

| type                                                  | target_frame | target_wrench | stiffness.* |
|-------------------------------------------------------|--------------|---------------|-------------|
| cartesian_compliance_controller/CartesianComplianceController | yes  | yes           | yes         |
| cartesian_motion_controller/CartesianMotionController | yes          | no            | no          |
| cartesian_force_controller/CartesianForceController   | no           | yes           | no          |

A CompliantMove always has a target pose, so it needs one of the first two.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from robot_tasks.control.compliance import CompliantMove
from robot_tasks.control.compliance.gains import gain_vector
from robot_tasks.control.errors import ControlError
from robot_tasks.control.pose import Pose, unit_quaternion_problem
from robot_tasks.nodes.compliance_server.parameters import WORLD, ComplianceConfig

COMPLIANCE = "cartesian_compliance_controller/CartesianComplianceController"
MOTION = "cartesian_motion_controller/CartesianMotionController"
FORCE = "cartesian_force_controller/CartesianForceController"
TAKES = {COMPLIANCE: {"pose", "wrench", "stiffness"}, MOTION: {"pose"}, FORCE: {"wrench"}}


class InvalidGoal(ValueError):
    """The goal cannot be run; the message says which field and why."""


@dataclass(frozen=True)
class CheckedGoal:
    controller: str
    takes: frozenset            # "pose", "wrench", "stiffness"
    move: CompliantMove
    frame_name: str
    hold: float
    stop_force: float
    timeout: float


def _finite(value: float, what: str) -> float:
    if not math.isfinite(value):
        raise InvalidGoal(f"{what} is {value}, not a finite number")
    return float(value)


def check_goal(goal, cfg: ComplianceConfig, types: dict) -> CheckedGoal:
    """`types`: controller name -> its type (from list_controllers)."""
    controller = goal.controller or cfg.default_controller
    takes = TAKES.get(types.get(controller), set())
    if "pose" not in takes:
        compliant = sorted(n for n, t in types.items() if "pose" in TAKES.get(t, set()))
        raise InvalidGoal(f"controller '{controller}' is not a compliant controller of "
                          f"'{cfg.robot_namespace}' that takes a target pose (it has {compliant})")
    frame_name = goal.target.header.frame_id or WORLD
    if frame_name not in cfg.frames:
        raise InvalidGoal(f"unknown frame '{frame_name}' (known: {sorted(cfg.frames)})")
    p, o = goal.target.pose.position, goal.target.pose.orientation
    position = [_finite(v, f"target.pose.position.{k}") for k, v in zip("xyz", (p.x, p.y, p.z))]
    quaternion = [_finite(v, f"target.pose.orientation.{k}")
                  for k, v in zip("xyzw", (o.x, o.y, o.z, o.w))]
    problem = unit_quaternion_problem(quaternion)
    if problem:
        raise InvalidGoal(f"target orientation {problem}")
    try:
        target = Pose(position, quaternion)
    except ControlError as err:
        raise InvalidGoal(f"target: {err}") from None
    w = goal.wrench
    wrench = np.array([_finite(v, f"wrench.{k}") for k, v in zip(
        ("force.x", "force.y", "force.z", "torque.x", "torque.y", "torque.z"),
        (w.force.x, w.force.y, w.force.z, w.torque.x, w.torque.y, w.torque.z))])
    if "wrench" not in takes and np.any(wrench != 0.0):
        raise InvalidGoal(f"controller '{controller}' ({types[controller]}) takes no target wrench, "
                          f"but the wrench is {wrench.tolist()}")
    stiffness = None
    if len(goal.stiffness):
        if "stiffness" not in takes:
            raise InvalidGoal(f"controller '{controller}' ({types[controller]}) has no stiffness "
                              "parameters: leave stiffness empty")
        try:
            stiffness = gain_vector(list(goal.stiffness), 6, "stiffness", cfg.stiffness_limits)
        except ControlError as err:
            raise InvalidGoal(str(err)) from None
    times = {k: _finite(getattr(goal, k), k) for k in ("duration", "hold", "stop_force", "timeout")}
    negative = [k for k, v in times.items() if v < 0]
    if negative:
        raise InvalidGoal(f"{', '.join(negative)} must be >= 0, got "
                          f"{', '.join(f'{times[k]:g}' for k in negative)}")
    move = CompliantMove(cfg.frames[frame_name], target, wrench, stiffness, times["duration"])
    timeout = times["timeout"] or times["duration"] + times["hold"] + cfg.timeout_margin
    return CheckedGoal(controller, frozenset(takes), move, frame_name, times["hold"], times["stop_force"],
                       timeout)
