"""Interface types by their ROS names: "robot_tasks_interfaces/action/MoveToPose" -> the class.

The way `ros2 action send_goal` names a type; used by the CLI (`robot-tasks send-goal`) and
by the action leaves, which name their action type instead of importing it at module
load (so a tree file can be validated where the interface package is not built).
"""
from __future__ import annotations

import importlib

from robot_tasks.ros.errors import RosError


def import_action_type(text: str):
    """`pkg/action/Name` or `pkg/Name` -> the action class (e.g. MoveToPose); RosError if not."""
    parts = text.strip("/").split("/")
    if len(parts) == 2:
        parts = [parts[0], "action", parts[1]]
    if len(parts) != 3 or parts[1] != "action" or not all(parts):
        raise RosError(f"action type '{text}' is not of the form package/action/Name")
    package, _, name = parts
    try:
        module = importlib.import_module(f"{package}.action")
    except ImportError as exc:
        raise RosError(f"cannot import action type '{text}': {exc}") from exc
    action = getattr(module, name, None)
    if action is None or not all(hasattr(action, part) for part in ("Goal", "Result", "Feedback")):
        raise RosError(f"'{package}.action' has no action named '{name}'")
    return action
