"""The task layer's error: every task package raises `TaskError` (or a subclass)."""
from __future__ import annotations

from robot_tasks.errors import RobotTasksError


class TaskError(RobotTasksError, ValueError):
    """A task cannot go on as asked, or a value a task leaf reads is malformed."""
