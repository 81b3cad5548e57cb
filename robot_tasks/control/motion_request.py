"""Validated motion requests for an arm server (no ROS).

The arm server turns a MoveToPose / MoveToJoints goal into one of the requests below
before it plans anything. Every way a goal can be wrong raises `MotionFailure`, which
names the outcome (motion_errors.py); the ROS layer looks up its number in the action
definition and copies `message` into the result:

    try:
        request = pose_request(frame, position, quaternion, motion=Motion.FREE,
                               frames=frames, defaults=defaults)
    except MotionFailure as failure:
        result.error_code = result_code(MoveToPose.Result, failure.code)

`FrameMap` replaces tf2 for the one transform the server needs: the fixed pose of the
robot's base frame in the "world" frame (from a parameter).
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from enum import Enum

import numpy as np
import pinocchio as pin

from .errors import InputError
from .motion_errors import ErrorCode, MotionFailure
from .pose import Pose, unit_quaternion_problem


class Motion(str, Enum):
    """How a pose goal gets there (MoveToPose.action's `motion` constants, by name)."""

    FREE = "FREE"            # joint-space interpolation to one IK solution
    PLANNED = "PLANNED"      # collision-aware RRT-Connect path
    CARTESIAN = "CARTESIAN"  # straight line of the tool
    BOUNDED = "BOUNDED"      # equal joint steps of at most max_dq per command step, then a hold


WORLD_FRAME = "world"


@dataclass(frozen=True)
class MotionDefaults:
    """Server-side values used when a goal leaves a field at 0 (the arm server's
    parameters of the same names set them; their defaults are declared there)."""

    position_tolerance: float      # m
    orientation_tolerance: float   # rad
    joint_tolerance: float         # rad (or m)
    velocity_scaling: float        # (0, 1]
    timeout: float                 # s
    max_dq: float = 0.006          # rad per command step (BOUNDED)
    min_steps: int = 40            # steps of the shortest BOUNDED motion


@dataclass(frozen=True)
class PoseRequest:
    """A MoveToPose goal, checked and expressed in the robot's base frame."""

    target_in_base: Pose
    frame_id: str            # the frame the caller used ("world" or the base frame)
    motion: Motion
    position_tolerance: float
    orientation_tolerance: float
    velocity_scaling: float
    timeout: float
    max_dq: float = 0.006    # rad per command step (BOUNDED only)
    min_steps: int = 40      # BOUNDED only


@dataclass(frozen=True)
class JointRequest:
    """A MoveToJoints goal, reordered into the kinematics' joint order."""

    positions: np.ndarray    # kinematics order
    goal_order: tuple        # the caller's joint order (for reporting back)
    tolerance: float
    velocity_scaling: float
    timeout: float


class FrameMap:
    """The two frames a pose goal may use: the base frame and "world" (base pose given)."""

    def __init__(self, base_frame: str, world_T_base: Pose):
        if not base_frame:
            raise InputError("base frame name is empty")
        self.base_frame = base_frame
        self.world_T_base = world_T_base
        self._world_T_base = world_T_base.to_se3()
        self._base_T_world = self._world_T_base.inverse()

    @property
    def names(self) -> tuple:
        return (self.base_frame, WORLD_FRAME)

    def to_base(self, pose: Pose, frame_id: str) -> Pose:
        """Express `pose`, given in `frame_id` ("" = world), in the base frame."""
        if not self._is_world(frame_id):
            return pose
        return Pose.from_se3(self._base_T_world * pose.to_se3())

    def from_base(self, pose: Pose, frame_id: str) -> Pose:
        """Express a base-frame pose in `frame_id` (one of `names`, "" = world)."""
        if not self._is_world(frame_id):
            return pose
        return Pose.from_se3(self._world_T_base * pose.to_se3())

    def _is_world(self, frame_id: str) -> bool:
        """Whether `frame_id` ("" = world) is the world frame, so a pose in it needs the
        base-world transform, or the base frame, so it needs none; any other frame is
        an INVALID_FRAME MotionFailure."""
        frame = frame_id or WORLD_FRAME
        if frame == self.base_frame:
            return False
        if frame == WORLD_FRAME:
            return True
        raise MotionFailure(ErrorCode.INVALID_FRAME,
                            f"frame '{frame}' is not '{self.base_frame}' or '{WORLD_FRAME}'")


def pose_distance(a: Pose, b: Pose) -> tuple[float, float]:
    """(position distance in m, rotation angle in rad) between two poses."""
    dp = float(np.linalg.norm(a.position - b.position))
    angle = float(np.linalg.norm(pin.log3(b.rotation @ a.rotation.T)))
    return dp, angle


def _positive_or_default(value: float, default: float, name: str, upper: float = math.inf) -> float:
    """0 means "server default"; otherwise the value must be finite, > 0 and <= upper."""
    value = float(value)
    if not math.isfinite(value):
        raise MotionFailure(ErrorCode.INVALID_GOAL, f"{name} is {value}, not a finite number")
    if value == 0.0:
        return default
    if value < 0 or value > upper:
        bound = f"(0, {upper:g}]" if math.isfinite(upper) else "> 0"
        raise MotionFailure(ErrorCode.INVALID_GOAL, f"{name} must be {bound} (or 0 for the "
                                                    f"default), got {value:g}")
    return value


def pose_request(frame_id: str, position, quaternion, motion: Motion, frames: FrameMap,
                 defaults: MotionDefaults, position_tolerance: float = 0.0,
                 orientation_tolerance: float = 0.0, velocity_scaling: float = 0.0,
                 timeout: float = 0.0, max_dq: float = 0.0, min_steps: int = 0) -> PoseRequest:
    """Check a MoveToPose goal field by field; raise MotionFailure naming the bad field.
    `max_dq` and `min_steps` (0 = default) are checked for every motion, used by BOUNDED."""
    pos = np.asarray(position, dtype=float)
    quat = np.asarray(quaternion, dtype=float)
    if not np.all(np.isfinite(pos)):
        raise MotionFailure(ErrorCode.INVALID_GOAL, f"target position has NaN/inf: {pos.tolist()}")
    if not np.all(np.isfinite(quat)):
        raise MotionFailure(ErrorCode.INVALID_GOAL,
                            f"target orientation has NaN/inf: {quat.tolist()}")
    problem = unit_quaternion_problem(quat)
    if problem:
        raise MotionFailure(ErrorCode.INVALID_GOAL, f"target orientation {problem}")
    if not isinstance(motion, Motion):
        raise MotionFailure(ErrorCode.INVALID_GOAL,
                            f"motion {motion} unknown; use FREE, PLANNED, CARTESIAN or BOUNDED")
    target = frames.to_base(Pose(pos, quat), frame_id)
    return PoseRequest(
        target, frame_id or WORLD_FRAME, motion,
        _positive_or_default(position_tolerance, defaults.position_tolerance,
                             "position_tolerance"),
        _positive_or_default(orientation_tolerance, defaults.orientation_tolerance,
                             "orientation_tolerance"),
        _positive_or_default(velocity_scaling, defaults.velocity_scaling, "velocity_scaling", 1.0),
        _positive_or_default(timeout, defaults.timeout, "timeout"),
        _positive_or_default(max_dq, defaults.max_dq, "max_dq"),
        _steps_or_default(min_steps, defaults.min_steps))


def _steps_or_default(value, default: int) -> int:
    """min_steps: 0 means "server default"; otherwise a whole number >= 1."""
    if isinstance(value, float) and not math.isfinite(value):
        raise MotionFailure(ErrorCode.INVALID_GOAL, f"min_steps is {value}, not a number")
    if int(value) != value or value < 0:
        raise MotionFailure(ErrorCode.INVALID_GOAL, f"min_steps must be a whole number >= 1 "
                                                    f"(or 0 for the default), got {value}")
    return int(value) or int(default)


def joint_request(joint_names, positions, arm_joints, lower, upper, defaults: MotionDefaults,
                  tolerance: float = 0.0, velocity_scaling: float = 0.0,
                  timeout: float = 0.0, limit_margin: float = 1e-6) -> JointRequest:
    """Check a MoveToJoints goal: every arm joint named once, finite, inside its limits."""
    names = list(joint_names)
    values = [float(v) for v in positions]
    arm = list(arm_joints)
    if len(names) != len(values):
        raise MotionFailure(ErrorCode.INVALID_GOAL,
                            f"{len(names)} joint names but {len(values)} positions")
    repeated = sorted({n for n in names if names.count(n) > 1})
    if repeated:
        raise MotionFailure(ErrorCode.INVALID_GOAL, f"joint names repeat: {repeated}")
    unknown = [n for n in names if n not in arm]
    missing = [n for n in arm if n not in names]
    if unknown or missing:
        raise MotionFailure(ErrorCode.INVALID_GOAL,
                            f"joint names must be exactly the arm joints {arm}; "
                            f"unknown: {unknown}, missing: {missing}")
    by_name = dict(zip(names, values))
    q = np.array([by_name[n] for n in arm])
    for name, value, lo, hi in zip(arm, q, lower, upper):
        if not math.isfinite(value):
            raise MotionFailure(ErrorCode.INVALID_GOAL, f"{name} target is {value}")
        if value < lo - limit_margin or value > hi + limit_margin:
            raise MotionFailure(ErrorCode.INVALID_GOAL,
                                f"{name} target {value:.4f} outside its limits [{lo:.4f}, {hi:.4f}]")
    return JointRequest(np.clip(q, lower, upper), tuple(names),
                        _positive_or_default(tolerance, defaults.joint_tolerance, "tolerance"),
                        _positive_or_default(velocity_scaling, defaults.velocity_scaling,
                                             "velocity_scaling", 1.0),
                        _positive_or_default(timeout, defaults.timeout, "timeout"))
