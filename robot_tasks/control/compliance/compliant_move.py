"""One compliant move: glide a controller's target to a pose (with a wrench), then hold it.

A compliant controller is commanded with *targets*, not trajectories: it pulls the tool
towards wherever its target is, as a spring would. To move somewhere without a jerk, the
caller slides the target there over a time (here a smoothstep: zero speed at both ends)
and the tool follows, lagging by about the impedance's time constant times the speed.

    move = CompliantMove(frame, Pose(goal_xyz, goal_quat), wrench, stiffness, duration=1.5)
    for each control period:
        command = move.command(layout, move.position_at(elapsed, start_position),
                               move.wrench_at(elapsed, start_wrench))

The wrench ramps the same way, from the one in force when the move starts.

Everything is stated in a *task frame* (e.g. the wall: z its inward normal), given by its
pose in the robot's base frame. `command_vector` lays a target out in the blocks a
controller takes (robot_tasks.control.compliance: "pose_abs", "wrench_abs", "stiffness"
...), preceded by the task frame's pose, the flat command the sim's controllers read.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..errors import InputError
from ..pose import Pose, as_vector

FRAME_BLOCK = 7                    # task frame: x y z qx qy qz qw in the base frame
POSE_BLOCKS = ("pose_abs",)        # what CompliantMove can drive


def smoothstep(s: float) -> float:
    """0 -> 0, 1 -> 1 with zero slope at both ends (3 s² − 2 s³), clamped outside [0, 1]."""
    s = min(max(s, 0.0), 1.0)
    return s * s * (3.0 - 2.0 * s)


def to_frame(frame: Pose, position) -> np.ndarray:
    """A base-frame point in task-frame coordinates."""
    return frame.rotation.T @ (np.asarray(position, float) - frame.position)


def along_normal(frame: Pose, vector) -> float:
    """The component of a base-axes vector (e.g. a measured force) along the frame's z."""
    return float(frame.rotation[:, 2] @ np.asarray(vector, float)[:3])


@dataclass(frozen=True)
class CompliantMove:
    """A target pose and wrench in a task frame, reached over `duration` s (smoothstep)."""

    frame: Pose                   # task frame in the base frame
    target: Pose                  # tool pose in the task frame
    wrench: np.ndarray            # 6: force, moment the tool exerts, task axes
    stiffness: np.ndarray | None  # 6 per-axis stiffnesses, or None = the controller's own
    duration: float = 0.0

    def position_at(self, elapsed: float, start) -> np.ndarray:
        """The target position (task frame) `elapsed` s after the move began at `start`."""
        start = as_vector(start, 3, "start position")
        s = 1.0 if self.duration <= 0.0 else smoothstep(elapsed / self.duration)
        return start + s * (self.target.position - start)

    def wrench_at(self, elapsed: float, start) -> np.ndarray:
        """The commanded wrench `elapsed` s in, ramped from `start` like the position: a force
        switched on at once would slam the tool into the surface."""
        start = as_vector(start, 6, "start wrench")
        s = 1.0 if self.duration <= 0.0 else smoothstep(elapsed / self.duration)
        return start + s * (np.asarray(self.wrench, float) - start)

    def command(self, layout, position, wrench=None) -> np.ndarray:
        """The flat command with the target at `position` (task frame) and `wrench` (default:
        the move's final wrench): see command_vector."""
        return command_vector(layout, self.frame, Pose(position, self.target.quaternion),
                              self.wrench if wrench is None else wrench, self.stiffness)


def command_vector(layout, frame: Pose, pose: Pose, wrench, stiffness) -> np.ndarray:
    """[frame (7)] + the blocks of `layout` filled from the pose, wrench and stiffness.

    Raises InputError when the controller's layout cannot carry the move: a controller
    that takes no pose target, a wrench for one that controls no force, a stiffness for
    one with fixed gains.
    """
    layout = [b for b in layout if b]
    if not any(b in POSE_BLOCKS for b in layout):
        raise InputError(f"the controller takes [{', '.join(layout)}]: no absolute pose target")
    wrench = as_vector(wrench, 6, "wrench")
    if "wrench_abs" not in layout and np.any(wrench != 0.0):
        raise InputError(f"the controller takes [{', '.join(layout)}]: it controls no force, "
                         f"but the wrench is {wrench.tolist()}")
    if "stiffness" not in layout and stiffness is not None:
        raise InputError(f"the controller takes [{', '.join(layout)}]: its gains are fixed, "
                         "leave stiffness empty")
    parts = [frame.position, frame.quaternion]
    for block in layout:
        if block == "pose_abs":
            parts += [pose.position, pose.quaternion]
        elif block == "wrench_abs":
            parts.append(wrench)
        elif block == "stiffness":
            if stiffness is None:
                raise InputError("the controller needs six stiffnesses")
            parts.append(as_vector(stiffness, 6, "stiffness"))
        elif block == "damping_ratio":
            parts.append(np.ones(6))           # critically damped
        else:
            raise InputError(f"command block '{block}' is not supported by a compliant move")
    return np.concatenate(parts)
