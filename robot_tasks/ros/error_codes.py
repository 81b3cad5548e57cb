"""Outcome names -> the numbers of an action's result, read from the generated class.

The numbers of MoveToPose, MoveToJoints and GripperCommand outcomes are defined once, in
their `.action` files (`int8 TIMEOUT=5`); rosidl turns them into class constants of the
generated Result types (`MoveToPose.Result.TIMEOUT`). The ROS-free layers name outcomes
(robot_tasks.control.motion_errors.ErrorCode); this module is the one place that turns a
name into its number, so nothing re-types a number by hand:

    result.error_code = result_code(MoveToPose.Result, failure.code)

Goal constants go the other way (a goal's number -> the library's name): `constant_name`.
"""
from __future__ import annotations

from enum import Enum

from robot_tasks.ros.errors import RosError


def _name(code) -> str:
    return str(code.value if isinstance(code, Enum) else code)


def result_code(result_type, code) -> int:
    """The number of outcome `code` (an ErrorCode or a name) in `result_type`'s constants."""
    value = getattr(result_type, _name(code), None)
    if not isinstance(value, int) or isinstance(value, bool):
        raise RosError(f"{result_type.__name__} has no outcome constant '{_name(code)}'")
    return value


def constants(message_type) -> dict[str, int]:
    """Every integer constant of a generated message class, name -> number."""
    found = {}
    for name in dir(message_type):
        value = getattr(message_type, name, None)
        if name.isupper() and isinstance(value, int) and not isinstance(value, bool):
            found[name] = value
    return found


def code_name(result_type, number: int) -> str:
    """The name of outcome `number` in `result_type` (e.g. 3 -> 'UNREACHABLE'), else 'CODE_<n>'."""
    return next((n for n, v in constants(result_type).items() if v == number), f"CODE_{number}")


def options(message_type, names) -> dict[str, int]:
    """{lower-case name: number} of the constants `names` of `message_type`: what a leaf
    port accepts, e.g. options(MoveToPose.Goal, Motion names) -> {"free": 0, ...}."""
    return {_name(n).lower(): result_code(message_type, n) for n in names}


def constant_name(message_type, number: int, names) -> str | None:
    """The name among `names` whose constant in `message_type` equals `number`, or None.
    E.g. constant_name(MoveToPose.Goal, goal.motion, ("FREE", "PLANNED", "CARTESIAN"))."""
    for name in names:
        if getattr(message_type, _name(name), None) == number:
            return _name(name)
    return None
