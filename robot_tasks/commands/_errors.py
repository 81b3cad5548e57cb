"""The error of the user-facing programs: the `robot-tasks` CLI, bringup and the demos."""
from __future__ import annotations

from robot_tasks.errors import RobotTasksError


class CommandError(RobotTasksError, ValueError):
    """A command line, bringup file or demo option that cannot be used; the message says why."""
