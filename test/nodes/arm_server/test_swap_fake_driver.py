"""Swap test: the arm and gripper servers run unchanged against a fake driver that only
implements the topic contract (no physics, no PyBullet in any of these processes)."""
import re
import time

import numpy as np
import pytest
from paths import REPO
from server_helpers import (
    FAKE_DRIVER,
    ActionHelper,
    JointRecorder,
    gripper_goal,
    joints_goal,
    pose_goal,
    pybullet_loaded,
    result_position,
)

from robot_tasks_interfaces.action import GripperCommand, MoveToJoints, MoveToPose

pytestmark = [pytest.mark.timeout(180), pytest.mark.ros]

Code = MoveToPose.Result
PANDA_ARM = [f"panda_joint{i}" for i in range(1, 8)]


@pytest.fixture(scope="module")
def stack(launcher, probe):
    procs = {
        "driver": launcher.start_script(FAKE_DRIVER, "fake_driver",
                                        params={"object_width": 0.05, "finger_speed": 0.02}),
        "arm": launcher.start_module("robot_tasks.nodes.arm_server", "arm_server",
                                     args=["--ros-args", "--params-file",
                                           str(REPO / "config" / "panda_arm.yaml")]),
        "gripper": launcher.start_module("robot_tasks.nodes.gripper_server", "gripper_server",
                                         params={"robot": "panda"}),
    }
    move = ActionHelper(probe, MoveToPose, "move_to_pose")
    joints = ActionHelper(probe, MoveToJoints, "move_to_joints")
    grip = ActionHelper(probe, GripperCommand, "gripper_command")
    for helper in (move, joints, grip):
        helper.wait_ready(30.0)
    recorder = JointRecorder(probe, "joint_states")
    probe.wait_for(lambda: recorder.latest() is not None, "joint_states", 10.0)
    return procs, move, joints, grip, recorder


def test_no_pybullet_in_driver_or_servers(stack):
    procs = stack[0]
    for name, proc in procs.items():
        assert proc.is_running(), name
        assert not pybullet_loaded(proc.pid), f"{name} has pybullet loaded"


def test_move_to_pose_free_then_cartesian_descent(stack):
    _, move, _, _, recorder = stack
    result, feedback, _ = move.run(pose_goal(0.45, 0.1, 0.95), 30.0)
    assert result.error_code == Code.SUCCESS, result.message
    assert np.linalg.norm(result_position(result) - [0.45, 0.1, 0.95]) <= 0.005
    assert result.final_pose.header.frame_id == "world"
    assert re.search(r"reached in [\d.]+ s after \d+ ms of planning", result.message), result.message
    assert any(f.phase == "executing" for _, f in feedback)
    distances = [f.distance_remaining for _, f in feedback if f.phase != "planning"]
    assert distances and distances[-1] < distances[0]

    result, _, _ = move.run(pose_goal(0.45, 0.1, 0.75, motion=MoveToPose.Goal.CARTESIAN), 30.0)
    assert result.error_code == Code.SUCCESS, result.message
    assert result.position_error <= 0.005


def test_move_to_joints_and_base_frame_goal(stack):
    _, move, joints, _, recorder = stack
    target = [0.2, -0.5, 0.1, -2.0, 0.0, 1.6, 0.7]
    result, _, _ = joints.run(joints_goal(list(reversed(PANDA_ARM)), list(reversed(target))))
    assert result.error_code == Code.SUCCESS, result.message
    measured = recorder.latest()[2]
    assert np.allclose([measured[n] for n in PANDA_ARM], target, atol=0.005)
    assert result.joint_names == list(reversed(PANDA_ARM))

    result, _, _ = move.run(pose_goal(0.4, -0.1, 0.3, frame="panda_link0"))
    assert result.error_code == Code.SUCCESS, result.message
    assert result.final_pose.header.frame_id == "panda_link0"
    assert np.linalg.norm(result_position(result) - [0.4, -0.1, 0.3]) <= 0.005


def test_gripper_closes_on_the_fake_object(stack):
    grip = stack[3]
    result, _, _ = grip.run(gripper_goal(width=0.0, max_effort=20.0))
    assert result.error_code == GripperCommand.Result.SUCCESS, result.message
    assert result.object_detected and not result.reached_goal
    assert abs(result.width - 0.05) < 0.002
    result, _, _ = grip.run(gripper_goal(width=0.08))
    assert result.error_code == GripperCommand.Result.SUCCESS, result.message
    assert result.reached_goal and not result.object_detected
    result, _, _ = grip.run(gripper_goal(mode=GripperCommand.Goal.SUCTION, suction_on=True))
    assert result.error_code == GripperCommand.Result.MODE_NOT_SUPPORTED, result.message


def test_gripper_preempt_and_cancel(stack, probe):
    grip, recorder = stack[3], stack[4]

    def width():
        sample = recorder.latest()[2]
        return sample["panda_finger_joint1"] + sample["panda_finger_joint2"]

    result, _, _ = grip.run(gripper_goal(width=0.08))
    assert result.reached_goal, result.message
    first, _ = grip.send(gripper_goal(width=0.0))
    probe.wait_for(lambda: width() < 0.075, "the fingers to close a little", 5.0)
    second, _ = grip.send(gripper_goal(width=0.08))
    first_result = grip.result(first)[1]
    assert first_result.error_code == GripperCommand.Result.PREEMPTED, first_result.message
    second_result = grip.result(second)[1]
    assert second_result.reached_goal, second_result.message

    third, _ = grip.send(gripper_goal(width=0.0))
    probe.wait_for(lambda: width() < 0.07, "the fingers to close a little", 5.0)
    probe.wait_future(third.cancel_goal_async(), 5.0, "cancel response")
    status, result = grip.result(third)
    assert result.error_code == GripperCommand.Result.CANCELLED, result.message
    held = width()
    time.sleep(0.3)
    assert 0.055 < width() < 0.074 and abs(width() - held) < 0.004, \
        f"the fingers kept closing: {held:.4f} -> {width():.4f}"
