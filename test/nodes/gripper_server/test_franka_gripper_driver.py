"""franka_gripper's rules, kept by the sim and by the stand-in written from franka_gripper's source.

Same tests, two drivers (conftest.py): a grasp succeeds only when the final width lies within
its epsilons, move and homing reach their widths, gripper_action's position is half the
width (and its result's position the whole width), a cancel stops the fingers, and
franka_gripper/joint_states reports each finger at half the width.
"""
import time

import pytest
from action_msgs.msg import GoalStatus
from ros_sim_helpers import Recorder, call_service
from sensor_msgs.msg import JointState
from server_helpers import ActionHelper
from std_srvs.srv import Trigger

from control_msgs.action import GripperCommand
from franka_msgs.action import Grasp, Homing, Move
from franka_msgs.msg import GraspEpsilon

pytestmark = [pytest.mark.timeout(240), pytest.mark.ros]

FAILED, ABORTED = "libfranka gripper: Command failed!", "libfranka gripper: Command aborted!"


@pytest.fixture(scope="module")
def hand(franka, probe):
    actions = {name: ActionHelper(probe, action, f"{franka.gripper}/{name}")
               for name, action in (("homing", Homing), ("move", Move), ("grasp", Grasp),
                                    ("gripper_action", GripperCommand))}
    for helper in actions.values():
        helper.wait_ready(30.0)
    states = Recorder(probe, JointState, f"{franka.gripper}/joint_states", keep=50)
    states.latest(20.0)
    yield franka, actions, states
    states.close()


def width(states) -> float:
    return sum(states.latest().position)


def settles_at(states, expected: float, tolerance: float = 0.003) -> None:
    """joint_states come at 15 Hz (franka_gripper's state_publish_rate): wait for one that shows it."""
    states.wait_for(lambda m: abs(sum(m.position) - expected) < tolerance, f"fingers {expected * 100:.1f} cm apart",
                    5.0)


def grasp(width_, inner=0.005, outer=0.005, force=20.0):
    return Grasp.Goal(width=width_, speed=0.1, force=force, epsilon=GraspEpsilon(inner=inner, outer=outer))


def test_homing_opens_fully_and_joint_states_are_half_widths(hand):
    franka, actions, states = hand
    result, _, status = actions["homing"].run(Homing.Goal(), 30.0)
    assert status == GoalStatus.STATUS_SUCCEEDED and result.success and result.error == "", result
    msg = states.wait_for(lambda m: sum(m.position) > 0.078, "the hand open", 5.0)
    assert list(msg.name) == ["panda_finger_joint1", "panda_finger_joint2"]
    assert msg.position[0] == pytest.approx(msg.position[1]) and list(msg.velocity) == [0.0, 0.0]


def test_grasp_succeeds_only_within_its_epsilons(hand):
    franka, actions, states = hand
    expected = franka.closed_width          # where the fingers stop: on the object or on each other
    result, feedback, status = actions["grasp"].run(grasp(expected), 30.0)
    assert status == GoalStatus.STATUS_SUCCEEDED and result.success, result
    assert feedback and feedback[-1][1].current_width == pytest.approx(expected, abs=0.01)
    settles_at(states, expected)
    assert actions["move"].run(Move.Goal(width=0.08, speed=0.1), 30.0)[0].success
    # the same fingers, told to expect 2 cm more: they stop at `expected`, outside
    # (width - inner, width + outer) = (expected + 1.5 cm, expected + 2.5 cm): not a grasp
    result, _, status = actions["grasp"].run(grasp(expected + 0.02), 30.0)
    assert status == GoalStatus.STATUS_ABORTED and not result.success and result.error == "", result
    settles_at(states, expected)
    # wide epsilons take it
    assert actions["move"].run(Move.Goal(width=0.08, speed=0.1), 30.0)[0].success
    result, _, status = actions["grasp"].run(grasp(expected + 0.02, inner=0.03), 30.0)
    assert status == GoalStatus.STATUS_SUCCEEDED and result.success, result


def test_move_reaches_its_width_and_refuses_one_beyond_the_fingers(hand):
    franka, actions, states = hand
    result, _, status = actions["move"].run(Move.Goal(width=0.07, speed=0.1), 30.0)
    assert status == GoalStatus.STATUS_SUCCEEDED and result.success, result
    settles_at(states, 0.07, 0.002)
    result, _, status = actions["move"].run(Move.Goal(width=0.2, speed=0.1), 30.0)
    assert status == GoalStatus.STATUS_ABORTED and not result.success and result.error == FAILED


def test_gripper_action_position_is_half_the_width(hand):
    franka, actions, states = hand
    assert actions["move"].run(Move.Goal(width=0.055, speed=0.1), 30.0)[0].success
    goal = GripperCommand.Goal()
    goal.command.position, goal.command.max_effort = 0.0325, 20.0    # opening: a move to 6.5 cm
    result, _, status = actions["gripper_action"].run(goal, 30.0)
    assert status == GoalStatus.STATUS_SUCCEEDED and result.reached_goal, result
    assert result.position == pytest.approx(0.065, abs=0.002)    # the whole width, as franka_gripper reports
    settles_at(states, 0.065, 0.002)
    result, _, status = actions["gripper_action"].run(goal, 10.0)   # already there: at once
    assert status == GoalStatus.STATUS_SUCCEEDED and result.reached_goal
    goal.command.position = 0.05                                  # 10 cm: more than the hand opens
    result, _, status = actions["gripper_action"].run(goal, 10.0)
    assert status == GoalStatus.STATUS_ABORTED and not result.reached_goal
    # closing is a grasp with franka's 5 mm epsilons: 3 cm misses what the fingers stop on
    goal.command.position = 0.015
    result, _, status = actions["gripper_action"].run(goal, 30.0)
    assert status == GoalStatus.STATUS_ABORTED and not result.reached_goal
    assert result.position == pytest.approx(franka.closed_width, abs=0.003)


def test_cancel_stops_the_fingers_where_they_are(hand, probe):
    franka, actions, states = hand
    assert actions["move"].run(Move.Goal(width=0.08, speed=0.1), 30.0)[0].success
    handle, _ = actions["move"].send(Move.Goal(width=0.0, speed=0.02))
    states.wait_for(lambda m: sum(m.position) < 0.075, "the fingers closing", 10.0)
    probe.wait_future(probe.run_on_executor(handle.cancel_goal_async, "cancel sent"), 5.0, "cancel response")
    status, result = actions["move"].result(handle, 10.0)
    assert status == GoalStatus.STATUS_CANCELED and not result.success and result.error == ABORTED
    time.sleep(0.2)                       # a state message after the stop
    held = width(states)
    time.sleep(0.5)
    assert abs(width(states) - held) < 0.002 and held > 0.06, f"{held:.4f} -> {width(states):.4f}"


def test_stop_service_answers_success(hand, probe):
    franka, *_ = hand
    response = call_service(probe, Trigger, f"{franka.gripper}/stop", Trigger.Request())
    assert response.success, response.message
