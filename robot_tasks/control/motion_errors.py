"""How a motion (or gripper) goal can end, by name — the numbers live in the .action files.

The outcomes of MoveToPose, MoveToJoints and GripperCommand are constants of their
action definitions (`int8 INVALID_GOAL=1` ...), and only there: the ROS layer reads a
code's number from the generated interface class by its name
(`robot_tasks.ros.error_codes.result_code`). This ROS-free side names the outcome:

    raise MotionFailure(ErrorCode.UNREACHABLE, "no IK solution within joint limits")

and a test checks that every name here is a constant of the actions that use it. This
module imports nothing heavy (no Pinocchio), so the gripper's logic can use it cheaply.
"""
from __future__ import annotations

from enum import Enum

from robot_tasks.control.errors import ControlError


class ErrorCode(str, Enum):
    """Outcome names shared by MoveToPose, MoveToJoints and GripperCommand results.

    A str enum: `ErrorCode.TIMEOUT == "TIMEOUT"`, so an action's own outcome
    (GripperCommand's "MODE_NOT_SUPPORTED") can be passed as a plain name."""

    SUCCESS = "SUCCESS"
    INVALID_GOAL = "INVALID_GOAL"
    INVALID_FRAME = "INVALID_FRAME"
    UNREACHABLE = "UNREACHABLE"
    PLANNING_FAILED = "PLANNING_FAILED"
    TIMEOUT = "TIMEOUT"
    CANCELLED = "CANCELLED"
    PREEMPTED = "PREEMPTED"
    CONTROLLER_FAILED = "CONTROLLER_FAILED"
    NO_JOINT_STATES = "NO_JOINT_STATES"
    TOLERANCE_NOT_MET = "TOLERANCE_NOT_MET"
    INTERNAL_ERROR = "INTERNAL_ERROR"


class MotionFailure(ControlError):
    """A goal cannot be (or was not) carried out; `code` names the outcome (an ErrorCode,
    or another action's own outcome name, e.g. GripperCommand's "MODE_NOT_SUPPORTED")."""

    def __init__(self, code: str, message: str):
        self.code = code
        self.name = str(code.value if isinstance(code, Enum) else code)
        self.message = message
        super().__init__(f"{self.name}: {message}")
