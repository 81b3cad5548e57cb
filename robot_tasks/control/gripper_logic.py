"""Gripper goal checks and "are the fingers done?" judgement (pure: no ROS imports).

A parallel gripper is done when either
- the measured width is within `width_tolerance` of the target (reached_goal), or
- the fingers stopped moving (width changed less than `stall_distance` during the last
  `stall_window` seconds); stopped wider than target + `stall_margin` while closing
  means something is between them (object_detected).
The command keeps acting after the goal ends (forward_command_controller style), so a
grasp stays squeezed with max_effort while the arm moves. FORCE_HOLD is a PARALLEL goal
whose command also tells the gripper to switch to force control once an object stops the
fingers: from then on each finger pushes with max_effort, whatever the width.
"""
from __future__ import annotations

import math
from collections import deque
from dataclasses import dataclass

from robot_tasks.control.motion_errors import ErrorCode, MotionFailure

PARALLEL, SUCTION, FORCE_HOLD = "PARALLEL", "SUCTION", "FORCE_HOLD"   # GripperCommand's `mode`s, by name
MODE_NOT_SUPPORTED = "MODE_NOT_SUPPORTED"    # GripperCommand's own outcome
MODES = (PARALLEL, SUCTION, FORCE_HOLD)


@dataclass(frozen=True)
class GripperSettings:
    """The gripper_server's parameters of the same names (their defaults are declared there)."""

    gripper_type: str            # parallel | suction
    max_width: float             # m
    default_effort: float        # N
    max_effort: float            # N
    width_tolerance: float       # m
    stall_margin: float          # m
    stall_distance: float        # m
    stall_window: float          # s
    default_timeout: float       # s
    suction_settle_time: float   # s to wait for an attachment after vacuum on


@dataclass(frozen=True)
class ParallelCommand:
    width: float
    effort: float
    timeout: float
    force_hold: bool = False     # force control once an object stops the fingers


@dataclass(frozen=True)
class SuctionCommand:
    on: bool
    timeout: float


def _timeout(value: float, default: float) -> float:
    value = float(value)
    if not math.isfinite(value) or value < 0:
        raise MotionFailure(ErrorCode.INVALID_GOAL, f"timeout must be >= 0, got {value}")
    return value or default


def check_goal(mode: str | None, width: float, max_effort: float, suction_on: bool, timeout: float,
               settings: GripperSettings):
    """GripperCommand goal -> ParallelCommand / SuctionCommand, or MotionFailure.
    `mode` is PARALLEL, SUCTION or FORCE_HOLD (None: the goal's number named no mode)."""
    if mode not in MODES:
        raise MotionFailure(ErrorCode.INVALID_GOAL, f"mode {mode} unknown; use PARALLEL, SUCTION or FORCE_HOLD")
    has = "parallel" if settings.gripper_type == "parallel" else "suction"
    wanted = "suction" if mode == SUCTION else "parallel"
    if has != wanted:
        raise MotionFailure(MODE_NOT_SUPPORTED,
                            f"{mode} requested, but this gripper is a {has} gripper")
    limit = _timeout(timeout, settings.default_timeout)
    if mode == SUCTION:
        return SuctionCommand(bool(suction_on), limit)
    width, effort = float(width), float(max_effort)
    if not math.isfinite(width) or not -1e-9 <= width <= settings.max_width + 1e-9:
        raise MotionFailure(ErrorCode.INVALID_GOAL,
                            f"width {width} outside [0, {settings.max_width:g}] m")
    if not math.isfinite(effort) or effort < 0 or effort > settings.max_effort:
        raise MotionFailure(ErrorCode.INVALID_GOAL,
                            f"max_effort {effort} outside (0, {settings.max_effort:g}] N "
                            "(0 = default)")
    return ParallelCommand(min(max(width, 0.0), settings.max_width),
                           effort or settings.default_effort, limit, force_hold=mode == FORCE_HOLD)


class StallDetector:
    """Feeds (time, width) samples; `stalled()` once the width stayed within
    `distance` for the last `window` seconds (and at least `window` has been observed)."""

    def __init__(self, window: float, distance: float):
        self.window, self.distance = window, distance
        self._samples: deque = deque()

    def add(self, t: float, width: float) -> None:
        self._samples.append((t, width))
        while len(self._samples) > 2 and self._samples[1][0] <= t - self.window:
            self._samples.popleft()

    def stalled(self) -> bool:
        if len(self._samples) < 2:
            return False
        t0, t1 = self._samples[0][0], self._samples[-1][0]
        widths = [w for _, w in self._samples]
        return t1 - t0 >= self.window - 1e-9 and max(widths) - min(widths) < self.distance


@dataclass(frozen=True)
class Verdict:
    done: bool
    reached_goal: bool
    object_detected: bool


def judge_parallel(width: float, target: float, stalled: bool, settings: GripperSettings,
                   closing: bool) -> Verdict:
    """Is a parallel-gripper goal finished, and how?"""
    reached = abs(width - target) <= settings.width_tolerance
    if reached:
        return Verdict(True, True, False)
    if stalled:
        blocked = closing and width > target + settings.stall_margin
        return Verdict(True, False, blocked)
    return Verdict(False, False, False)
