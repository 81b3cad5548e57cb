"""The gripper server's pure rules: goal checks, and goals as real drivers' actions and back."""
from __future__ import annotations

import math
import subprocess
import sys
from dataclasses import replace

import pytest

from robot_tasks.control.gripper_drivers import (
    ABORTED,
    CANCELED,
    SUCCEEDED,
    franka_call,
    gripper_action_call,
    judge_franka,
    judge_gripper_action,
)
from robot_tasks.control.gripper_logic import (
    FORCE_HOLD,
    MODE_NOT_SUPPORTED,
    PARALLEL,
    SUCTION,
    GripperSettings,
    ParallelCommand,
    SuctionCommand,
    check_goal,
)
from robot_tasks.control.motion_errors import ErrorCode, MotionFailure

PARALLEL_GRIPPER = GripperSettings(gripper_type="parallel", max_width=0.08, default_effort=20.0, max_effort=140.0,
                                   width_tolerance=0.002, stall_margin=0.002, default_timeout=5.0,
                                   suction_settle_time=0.5)
SUCTION_CUP = replace(PARALLEL_GRIPPER, gripper_type="suction")
CLOSE = ParallelCommand(0.0, 20.0, 5.0)
OPEN = ParallelCommand(0.08, 20.0, 5.0)


def failure_of(fn, *args, **kwargs) -> MotionFailure:
    with pytest.raises(MotionFailure) as info:
        fn(*args, **kwargs)
    return info.value


def test_gripper_goal_checks():
    parallel, suction = PARALLEL_GRIPPER, SUCTION_CUP
    assert check_goal(PARALLEL, 0.0, 0.0, False, 0.0, parallel) == ParallelCommand(0.0, 20.0, 5.0)
    assert check_goal(SUCTION, 0.0, 0.0, True, 1.0, suction) == SuctionCommand(True, 1.0)
    assert failure_of(check_goal, SUCTION, 0, 0, True, 0, parallel).code == MODE_NOT_SUPPORTED
    assert failure_of(check_goal, PARALLEL, 0.04, 0, False, 0, suction).code == MODE_NOT_SUPPORTED
    for width, effort in ((0.09, 10.0), (math.nan, 10.0), (0.04, -1.0), (0.04, 500.0)):
        assert failure_of(check_goal, PARALLEL, width, effort, False, 0,
                          parallel).code == ErrorCode.INVALID_GOAL
    assert failure_of(check_goal, 5, 0, 0, False, 0, parallel).code == ErrorCode.INVALID_GOAL


def test_force_hold_is_a_parallel_goal_that_asks_for_force_control():
    command = check_goal(FORCE_HOLD, 0.0, 10.0, False, 0.0, PARALLEL_GRIPPER)
    assert command == ParallelCommand(0.0, 10.0, 5.0, force_hold=True)
    assert check_goal(PARALLEL, 0.0, 10.0, False, 0.0, PARALLEL_GRIPPER).force_hold is False
    assert failure_of(check_goal, FORCE_HOLD, 0.0, 10.0, False, 0.0, SUCTION_CUP).code == MODE_NOT_SUPPORTED
    assert failure_of(check_goal, FORCE_HOLD, 0.0, -1.0, False, 0.0, PARALLEL_GRIPPER).code == ErrorCode.INVALID_GOAL


def test_franka_opens_with_move_and_closes_with_a_grasp_that_takes_anything_it_stops_on():
    move = franka_call(OPEN, 0.05, 0.1, 0.005, PARALLEL_GRIPPER)
    assert (move.kind, move.fields) == ("move", {"width": 0.08, "speed": 0.1})
    for command in (CLOSE, replace(CLOSE, force_hold=True)):      # FORCE_HOLD is franka's grasp too
        grasp = franka_call(command, 0.08, 0.1, 0.005, PARALLEL_GRIPPER)
        assert grasp.kind == "grasp" and grasp.closing
        assert grasp.fields == {"width": 0.0, "speed": 0.1, "force": 20.0, "epsilon_inner": 0.005,
                                "epsilon_outer": 0.08}
    assert franka_call(ParallelCommand(0.05, 20.0, 5.0), 0.05, 0.1, 0.005, PARALLEL_GRIPPER).kind == "move"
    # an open hand reads a hair wider than it opens: "open" stays a move
    assert franka_call(OPEN, 0.0801, 0.1, 0.005, PARALLEL_GRIPPER).kind == "move"


def test_franka_answers_read_as_verdicts():
    grasp = franka_call(CLOSE, 0.08, 0.1, 0.005, PARALLEL_GRIPPER)
    verdict, message = judge_franka(grasp, SUCCEEDED, True, "", 0.0502, PARALLEL_GRIPPER)
    assert verdict.object_detected and not verdict.reached_goal and "holding an object" in message
    verdict, _ = judge_franka(grasp, SUCCEEDED, True, "", 0.0003, PARALLEL_GRIPPER)
    assert verdict.reached_goal and not verdict.object_detected
    # a grasp libfranka calls unsuccessful (no error text): the fingers closed past the target
    narrow = franka_call(ParallelCommand(0.03, 20.0, 5.0), 0.08, 0.1, 0.005, PARALLEL_GRIPPER)
    verdict, message = judge_franka(narrow, ABORTED, False, "", 0.0, PARALLEL_GRIPPER)
    assert not verdict.reached_goal and not verdict.object_detected and "nothing to grasp" in message
    # errors, and a goal the driver cancelled by itself, are the driver failing
    failed = failure_of(judge_franka, grasp, ABORTED, False, "libfranka gripper: Command failed!", 0.08,
                        PARALLEL_GRIPPER)
    assert failed.code == ErrorCode.CONTROLLER_FAILED and "Command failed!" in failed.message
    assert failure_of(judge_franka, grasp, CANCELED, False, "", 0.07, PARALLEL_GRIPPER).code == \
        ErrorCode.CONTROLLER_FAILED
    move = franka_call(OPEN, 0.0, 0.1, 0.005, PARALLEL_GRIPPER)
    assert judge_franka(move, SUCCEEDED, True, "", 0.0795, PARALLEL_GRIPPER)[0].reached_goal
    assert failure_of(judge_franka, move, ABORTED, False, "", 0.03, PARALLEL_GRIPPER).code == \
        ErrorCode.CONTROLLER_FAILED


def test_gripper_action_position_scale_and_verdicts():
    call = gripper_action_call(CLOSE, 0.08, 0.5, PARALLEL_GRIPPER)
    assert call.fields == {"position": 0.0, "max_effort": 20.0} and call.closing
    assert gripper_action_call(OPEN, 0.0, 0.5, PARALLEL_GRIPPER).fields["position"] == pytest.approx(0.04)
    # franka_gripper aborts a grasp on an object that misses its 5 mm epsilons: still a grasp
    verdict, _ = judge_gripper_action(call, ABORTED, 0.05, PARALLEL_GRIPPER)
    assert verdict.object_detected
    assert judge_gripper_action(call, SUCCEEDED, 0.0, PARALLEL_GRIPPER)[0].reached_goal
    opened = gripper_action_call(OPEN, 0.0, 0.5, PARALLEL_GRIPPER)
    assert failure_of(judge_gripper_action, opened, ABORTED, 0.03, PARALLEL_GRIPPER).code == \
        ErrorCode.CONTROLLER_FAILED


def test_pure_modules_import_without_ros():
    code = ("import sys; import robot_tasks.control.gripper_logic, robot_tasks.control.gripper_drivers; "
            "bad = [m for m in sys.modules if m.startswith(('rclpy', 'pybullet'))]; assert not bad, bad")
    subprocess.run([sys.executable, "-c", code], check=True)
