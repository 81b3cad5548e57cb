"""Gripper goal checks (pure: no ROS imports).

A GripperCommand goal (robot_tasks_interfaces) names a mode: PARALLEL (fingers to `width`
with at most `max_effort`), FORCE_HOLD (the same; once an object stops the fingers they keep
pushing with max_effort) or SUCTION (vacuum on / off). `check_goal` turns a goal into a
ParallelCommand or a SuctionCommand for the gripper the server drives, or refuses it.
How a command becomes a real driver's action, and how its answer is read, is
robot_tasks.control.gripper_drivers; a driver that does not answer is an error, never a
grasp.
"""
from __future__ import annotations

import math
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
    width_tolerance: float       # m: a width this close to the target reached it
    stall_margin: float          # m: closing, stopped wider than target + this = an object
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


@dataclass(frozen=True)
class Verdict:
    """How a finished parallel-gripper goal ended (the result's fields of the same names)."""

    reached_goal: bool
    object_detected: bool
