"""Bad goals and broken robots give the right result codes, and the server keeps serving.

Runs against the fake driver (no physics needed to judge a goal's validity).
"""
import math

import pytest
from server_helpers import FAKE_DRIVER, ActionHelper, joints_goal, pose_goal

from robot_tasks_interfaces.action import MoveToJoints, MoveToPose

pytestmark = [pytest.mark.timeout(180), pytest.mark.ros]

Code = MoveToPose.Result
PANDA_ARM = [f"panda_joint{i}" for i in range(1, 8)]
HOME = [0.0, -0.785, 0.0, -2.356, 0.0, 1.571, 0.785]


@pytest.fixture(scope="module")
def servers(launcher, probe):
    launcher.start_script(FAKE_DRIVER, "fake_driver")
    launcher.start_module("robot_tasks.nodes.arm_server", "arm_server", params={"robot": "panda"})
    # no driver in /lonely: no joint_states, no robot_description
    launcher.start_module("robot_tasks.nodes.arm_server", "arm_server",
                          params={"robot": "panda", "startup_wait": 0.5},
                          remaps={"__ns": "/lonely"})
    # joint_states arrive, but no trajectory controller serves the action it is given
    launcher.start_module("robot_tasks.nodes.arm_server", "arm_server",
                          params={"robot": "panda", "settle_timeout": 0.3,
                                  "controller_action": "/nobody/listens"},
                          remaps={"__ns": "/deaf", "joint_states": "/joint_states",
                                  "robot_description": "/robot_description"})
    # stand-in JTCs (test/support/jtc_standin.py) that refuse, or end a goal with their code
    for ns, params in (("/inactive", {"jtc_active": False}),
                       ("/slow", {"max_joint_speed": 0.2, "jtc_path_tolerance": 0.05}),
                       ("/stuck", {"max_joint_speed": 0.3, "jtc_goal_tolerance": 0.01, "jtc_goal_time": 0.3})):
        launcher.start_script(FAKE_DRIVER, "fake_driver", params=params, remaps={"__ns": ns})
        launcher.start_module("robot_tasks.nodes.arm_server", "arm_server", params={"robot": "panda"},
                              remaps={"__ns": ns})
    move = ActionHelper(probe, MoveToPose, "move_to_pose")
    joints = ActionHelper(probe, MoveToJoints, "move_to_joints")
    lonely = ActionHelper(probe, MoveToPose, "/lonely/move_to_pose")
    deaf = ActionHelper(probe, MoveToJoints, "/deaf/move_to_joints")
    for helper in (move, joints, lonely, deaf):
        helper.wait_ready(30.0)
    return move, joints, lonely, deaf


@pytest.mark.parametrize("goal, code, words", [
    (pose_goal(math.nan, 0.0, 1.0), Code.INVALID_GOAL, "NaN"),
    (pose_goal(0.4, 0.0, 1.0, quat=(0, 0, 0, 0)), Code.INVALID_GOAL, "zero quaternion"),
    (pose_goal(0.4, 0.0, 1.0, quat=(0, 0, 0, 2)), Code.INVALID_GOAL, "not normalized: length 2"),
    (pose_goal(0.4, 0.0, 1.0, quat=(math.inf, 0, 0, 1)), Code.INVALID_GOAL, "NaN/inf"),
    (pose_goal(0.4, 0.0, 1.0, frame="camera"), Code.INVALID_FRAME, "'camera'"),
    (pose_goal(3.0, 0.0, 1.0), Code.UNREACHABLE, "no IK solution"),
    (pose_goal(3.0, 0.0, 1.0, motion=MoveToPose.Goal.CARTESIAN), Code.UNREACHABLE, "straight"),
    (pose_goal(0.4, 0.0, 1.0, motion=7), Code.INVALID_GOAL, "motion 7"),
    (pose_goal(0.4, 0.0, 1.0, timeout=-1.0), Code.INVALID_GOAL, "timeout"),
    (pose_goal(0.4, 0.0, 1.0, velocity_scaling=1.5), Code.INVALID_GOAL, "velocity_scaling"),
    (pose_goal(0.4, 0.0, 1.0, position_tolerance=math.nan), Code.INVALID_GOAL,
     "position_tolerance"),
    (pose_goal(0.4, 0.0, 1.0, motion=MoveToPose.Goal.BOUNDED, max_dq=-0.006), Code.INVALID_GOAL, "max_dq"),
    (pose_goal(0.4, 0.0, 1.0, motion=MoveToPose.Goal.BOUNDED, max_dq=math.nan), Code.INVALID_GOAL, "max_dq"),
    (pose_goal(0.4, 0.0, 1.0, motion=MoveToPose.Goal.BOUNDED, min_steps=-5), Code.INVALID_GOAL, "min_steps"),
])
def test_bad_pose_goals(servers, goal, code, words):
    result, _, status = servers[0].run(goal, 30.0)
    assert result.error_code == code, result.message
    assert words in result.message


@pytest.mark.parametrize("names, positions, words", [
    (PANDA_ARM[:6] + ["elbow_joint"], HOME, "unknown: ['elbow_joint']"),
    (PANDA_ARM[:6], HOME[:6], "missing: ['panda_joint7']"),
    (PANDA_ARM, HOME[:6], "7 joint names but 6 positions"),
    (PANDA_ARM, HOME[:6] + [math.nan], "panda_joint7 target is nan"),
    (PANDA_ARM, [3.5] + HOME[1:], "panda_joint1 target 3.5000 outside its limits"),
    (PANDA_ARM[:6] + ["panda_joint1"], HOME, "repeat"),
])
def test_bad_joint_goals(servers, names, positions, words):
    result, _, _ = servers[1].run(joints_goal(names, positions), 30.0)
    assert result.error_code == MoveToJoints.Result.INVALID_GOAL, result.message
    assert words in result.message


def test_server_still_serves_after_bad_goals(servers):
    result, _, _ = servers[0].run(pose_goal(0.4, 0.1, 1.0), 30.0)
    assert result.error_code == Code.SUCCESS, result.message


def test_no_joint_states(servers):
    result, _, _ = servers[2].run(pose_goal(0.4, 0.1, 1.0), 30.0)
    assert result.error_code == Code.NO_JOINT_STATES, result.message
    assert "robot_description" in result.message


def test_timeout_holds_the_arm(servers):
    goal = joints_goal(PANDA_ARM, [1.5] + HOME[1:], velocity_scaling=0.2, timeout=0.3)
    result, _, _ = servers[1].run(goal, 30.0)
    assert result.error_code == MoveToJoints.Result.TIMEOUT, result.message
    assert 0.0 < result.positions[0] < 1.0, "the arm should have stopped part way"


@pytest.mark.parametrize("ns, code, words", [
    ("/inactive", MoveToJoints.Result.CONTROLLER_FAILED, "refused the goal"),
    ("/slow", MoveToJoints.Result.CONTROLLER_FAILED, "ABORTED PATH_TOLERANCE_VIOLATED"),
    ("/stuck", MoveToJoints.Result.TOLERANCE_NOT_MET, "ABORTED GOAL_TOLERANCE_VIOLATED"),
])
def test_the_controllers_refusal_and_codes_reach_the_caller(servers, probe, ns, code, words):
    """A JTC refuses goals while inactive, and ends a goal with its own code when the arm
    leaves the path tolerance or misses the goal tolerance: the caller reads which."""
    helper = ActionHelper(probe, MoveToJoints, f"{ns}/move_to_joints")
    helper.wait_ready(30.0)
    result, _, _ = helper.run(joints_goal(PANDA_ARM, [0.6] + HOME[1:], velocity_scaling=1.0), 30.0)
    assert result.error_code == code, result.message
    assert words in result.message


def test_controller_that_does_not_follow(servers):
    result, _, _ = servers[3].run(joints_goal(PANDA_ARM, [0.3] + HOME[1:]), 30.0)
    assert result.error_code == MoveToJoints.Result.CONTROLLER_FAILED, result.message
    assert "/nobody/listens" in result.message
