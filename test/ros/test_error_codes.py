"""One source of truth for outcome codes: the .action files. The library names outcomes;
every name it can produce must be a constant of the action that reports it, and the
goal constants the servers read by name must exist with the numbers the files give."""
import pytest

from robot_tasks.control.gripper_logic import MODE_NOT_SUPPORTED, MODES
from robot_tasks.control.motion_errors import ErrorCode, MotionFailure
from robot_tasks.control.motion_request import Motion
from robot_tasks.ros.error_codes import code_name, constant_name, options, result_code
from robot_tasks.ros.errors import RosError
from robot_tasks_interfaces.action import GripperCommand, MoveToJoints, MoveToPose

# Outcomes MoveToJoints and GripperCommand cannot have (their .action files leave them out).
NOT_JOINTS = {ErrorCode.INVALID_FRAME, ErrorCode.UNREACHABLE, ErrorCode.PLANNING_FAILED}
NOT_GRIPPER = NOT_JOINTS | {ErrorCode.TOLERANCE_NOT_MET}


def test_every_arm_outcome_is_a_move_to_pose_constant():
    for code in ErrorCode:
        assert isinstance(result_code(MoveToPose.Result, code), int), code


def test_joint_and_gripper_outcomes_exist_in_their_actions():
    for code in set(ErrorCode) - NOT_JOINTS:
        result_code(MoveToJoints.Result, code)
    for code in set(ErrorCode) - NOT_GRIPPER:
        result_code(GripperCommand.Result, code)
    assert result_code(GripperCommand.Result, MODE_NOT_SUPPORTED) == GripperCommand.Result.MODE_NOT_SUPPORTED


def test_numbers_come_from_the_generated_classes():
    assert result_code(MoveToPose.Result, ErrorCode.TIMEOUT) == MoveToPose.Result.TIMEOUT == 5
    assert result_code(MoveToPose.Result, MotionFailure(ErrorCode.UNREACHABLE, "x").code) == 3
    assert code_name(MoveToPose.Result, 3) == "UNREACHABLE"
    assert code_name(MoveToPose.Result, 99) == "CODE_99"
    assert options(MoveToPose.Goal, [m.value for m in Motion]) == {"free": 0, "planned": 1, "cartesian": 2,
                                                                    "bounded": 3}


def test_an_outcome_an_action_does_not_define_is_refused():
    with pytest.raises(RosError, match="MoveToJoints_Result has no outcome constant 'UNREACHABLE'"):
        result_code(MoveToJoints.Result, ErrorCode.UNREACHABLE)


def test_goal_constants_by_name():
    for motion in Motion:
        assert constant_name(MoveToPose.Goal, getattr(MoveToPose.Goal, motion.value), [m.value for m in Motion]) \
            == motion.value
    assert constant_name(MoveToPose.Goal, 7, [m.value for m in Motion]) is None
    assert [constant_name(GripperCommand.Goal, n, MODES) for n in (0, 1, 2, 3)] == ["PARALLEL", "SUCTION", "FORCE_HOLD",
                                                                                    None]
