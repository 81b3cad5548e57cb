"""Errors raised by the simulation library; callers catch `SimError`."""
from __future__ import annotations

from robot_tasks.errors import RobotTasksError


class SimError(RobotTasksError):
    """Base class of every error robot_tasks.sim raises on purpose."""


class CommandRejected(SimError):
    """A controller or gripper command was refused; `reason` says why in plain words.

    The world's state is unchanged when this is raised: a rejected trajectory never
    replaces the running one (like ros2_control, which rejects before preempting).
    """

    def __init__(self, reason: str):
        self.reason = reason
        super().__init__(reason)


class UnknownName(SimError):
    """A scene, robot, object or camera name that the world does not have."""

    def __init__(self, kind: str, name: str, known):
        self.kind, self.name = kind, name
        known_list = ", ".join(sorted(known)) or "none"
        super().__init__(f"unknown {kind} '{name}' (known: {known_list})")
