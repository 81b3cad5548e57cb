"""Faster than real time, the servers judge the robot only once it could have answered.

At `--rtf 0` the sim's seconds race past while a command is still on the wire: in
bench/episode_speed.py (2026-12-04) a cartesian `lower` ended CONTROLLER_FAILED ("the arm
moved 0.0000 of 0.6757 rad") 0.14 wall s after its trajectory was sent, because 2.8 sim s had
passed. The same race let a closing gripper look stalled at its open width. Here a fake
driver publishes /clock 20 times faster than the wall clock and applies every command
0.2 wall s (4 sim s) after it arrives; the servers run on that clock (use_sim_time).
"""
import pytest
from server_helpers import FAKE_DRIVER, ActionHelper, gripper_goal, joints_goal

from robot_tasks_interfaces.action import GripperCommand, MoveToJoints

pytestmark = [pytest.mark.timeout(180), pytest.mark.ros]

PANDA_ARM = [f"panda_joint{i}" for i in range(1, 8)]
HOME = [0.0, -0.785, 0.0, -2.356, 0.0, 1.571, 0.785]
SPEEDUP, DELAY = 20.0, 0.2
OBJECT_WIDTH = 0.05


@pytest.fixture(scope="module")
def servers(launcher, probe):
    launcher.start_script(FAKE_DRIVER, "fake_driver",
                          params={"clock_speedup": SPEEDUP, "command_delay": DELAY,
                                  "object_width": OBJECT_WIDTH, "finger_speed": 0.1})
    launcher.start_module("robot_tasks.nodes.arm_server", "arm_server",
                          params={"robot": "panda", "use_sim_time": True})
    launcher.start_module("robot_tasks.nodes.gripper_server", "gripper_server",
                          params={"robot": "panda", "use_sim_time": True})
    joints = ActionHelper(probe, MoveToJoints, "move_to_joints")
    grip = ActionHelper(probe, GripperCommand, "gripper_command")
    for helper in (joints, grip):
        helper.wait_ready(30.0)
    return joints, grip


def test_a_trajectory_still_in_transit_is_not_judged_failed(servers):
    joints, _ = servers
    target = [0.6] + HOME[1:]
    result, _, _ = joints.run(joints_goal(PANDA_ARM, target), 30.0)
    assert result.error_code == MoveToJoints.Result.SUCCESS, result.message
    assert abs(result.positions[0] - 0.6) < 0.01


def test_fingers_not_yet_moving_are_not_judged_stalled(servers):
    _, grip = servers
    result, _, _ = grip.run(gripper_goal(width=0.08), 30.0)
    assert result.reached_goal, result.message
    result, _, _ = grip.run(gripper_goal(width=0.0, max_effort=20.0), 30.0)
    # closed on the object, not "holding an object" at the open width it started from
    assert result.object_detected, result.message
    assert abs(result.width - OBJECT_WIDTH) < 0.003, result.message
