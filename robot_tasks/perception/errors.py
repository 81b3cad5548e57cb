"""The errors perception raises; callers catch `PerceptionError`.

`PerceptionInputError` also derives from ValueError so plain callers can catch the usual
type, and the perception server can tell "your image was malformed" apart from a bug.
"""
from __future__ import annotations

from robot_tasks.errors import RobotTasksError


class PerceptionError(RobotTasksError):
    """Base class of every error robot_tasks.perception raises on purpose."""


class PerceptionInputError(PerceptionError, ValueError):
    """An image, depth map, intrinsics or pose does not meet the documented contract.

    The message names the offending argument and what was expected, e.g.
    ``depth: expected shape (480, 640) to match rgb, got (240, 320)``.
    """
