"""Errors raised by robot_tasks.control; all derive from ControlError so callers catch one class.

Solvers report *expected* failures (an unreachable pose, a planner timeout) in their result
objects instead of raising: raising is kept for bad input — a malformed URDF, an unknown
frame, a NaN in a target, a vector of the wrong length.
"""
from __future__ import annotations

from robot_tasks.errors import RobotTasksError


class ControlError(RobotTasksError):
    """Base class of every error raised by robot_tasks.control."""


class ModelError(ControlError):
    """The robot description cannot be used: missing file, unknown joint or frame, bad URDF."""


class InputError(ControlError, ValueError):
    """An argument is malformed: wrong shape, not finite, out of its allowed range."""
