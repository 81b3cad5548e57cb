"""Swap test, whole contract: the three servers (arm, gripper, perception) run unchanged
against two stand-in drivers that only implement the topic contract — no PyBullet in any
of the five node processes:

  fake_driver   joint_states, robot_description, joint_trajectory_controller's action and
                franka_gripper's actions (stand-ins written from the upstream drivers)
  fake_camera   RGB-D frames + camera_info + camera/pose replayed from a recording of the
                franka_stacking sim scene (made here, in the test process, with
                robot_tasks.sim; only this pytest process loads PyBullet)

Then one pick-like sequence: DetectObjects finds the red cube where the recording's
ground truth has it, MoveToPose brings the tool 10 cm above that detection (pointing
down), the gripper closes and opens.

Frames: the sim stands the Panda on the table at world z = 0.625 and
config/panda_arm.yaml says the same (world_T_base), so a world-frame detection is a
world-frame arm target. The fake driver knows nothing of frames (joint space only).
All nodes run in a namespace unique to this run, so a node of another test session
on the same random ROS_DOMAIN_ID cannot answer our goals.
"""
import os
import random
from pathlib import Path

import numpy as np
import pytest
from action_msgs.msg import GoalStatus
from paths import REPO
from perception_helpers import FAKE_CAMERA, SERVER_MODULE, Detect, position
from record_frames import record
from server_helpers import (
    DOWN,
    FAKE_DRIVER,
    ActionHelper,
    JointRecorder,
    gripper_goal,
    pose_goal,
    pybullet_loaded,
    result_position,
)

from robot_tasks_interfaces.action import GripperCommand, MoveToPose

pytestmark = [pytest.mark.timeout(180), pytest.mark.ros]

CUBE = "red_cube"
CUBE_WIDTH = 0.05
ABOVE = 0.10                    # m between the detected cube centre and the tool target


@pytest.fixture(scope="module")
def recording(tmp_path_factory):
    path = record(tmp_path_factory.mktemp("frames") / "franka_stacking_seed2.npz",
                  scene="franka_stacking", seed=2, frames=2)
    data = np.load(path)
    truth = dict(zip((str(n) for n in data["truth_names"]), data["truth_positions"]))
    return path, truth


@pytest.fixture(scope="module")
def ns():
    return f"/swap{os.getpid()}_{random.SystemRandom().randrange(10**6)}"


@pytest.fixture(scope="module")
def stack(launcher, probe, recording, ns):
    remaps = {"__ns": ns}
    procs = {
        "fake_driver": launcher.start_script(FAKE_DRIVER, "fake_driver", remaps=remaps,
                                             params={"object_width": CUBE_WIDTH}),
        "fake_camera": launcher.start_script(FAKE_CAMERA, "fake_camera", remaps=remaps,
                                             params={"frames": str(recording[0]), "rate": 5.0}),
        "arm_server": launcher.start_module("robot_tasks.nodes.arm_server", "arm_server",
                                            remaps=remaps,
                                            args=["--ros-args", "--params-file",
                                                  str(REPO / "config" / "panda_arm.yaml")]),
        "gripper_server": launcher.start_module("robot_tasks.nodes.gripper_server",
                                                "gripper_server", remaps=remaps,
                                                params={"robot": "panda"}),
        "perception_server": launcher.start_module(SERVER_MODULE, "perception_server",
                                                   remaps=remaps, params={"stream_rate": 0.0}),
    }
    detect = Detect(probe, f"{ns}/detect_objects")
    move = ActionHelper(probe, MoveToPose, f"{ns}/move_to_pose")
    grip = ActionHelper(probe, GripperCommand, f"{ns}/gripper_command")
    detect.wait_ready(30.0)
    move.wait_ready(30.0)
    grip.wait_ready(30.0)
    recorder = JointRecorder(probe, f"{ns}/joint_states")
    probe.wait_for(lambda: recorder.latest() is not None, f"{ns}/joint_states", 10.0)
    return procs, detect, move, grip, recorder


def test_detect_move_above_and_gripper_with_no_pybullet_in_any_node(stack, recording):
    procs, detect, move, grip, recorder = stack
    truth = recording[1]

    # 1. perception: the red cube, where the recorded ground truth has it
    result, status, _ = detect.call(labels=[CUBE], timeout=5.0)
    assert status == GoalStatus.STATUS_SUCCEEDED, result.message
    assert [o.label for o in result.objects] == [CUBE]
    cube = position(result.objects[0])
    assert result.header.frame_id == "world"
    error = np.linalg.norm(cube - truth[CUBE])
    print(f"{CUBE}: detected {np.round(cube, 4)}, truth {np.round(truth[CUBE], 4)}, "
          f"error {error:.4f} m")
    assert error <= 0.01, f"{CUBE} detected at {cube}, truth {truth[CUBE]} ({error:.4f} m)"

    # 2. arm: the tool 10 cm above the detected cube, pointing down, in the world frame
    target = cube + [0.0, 0.0, ABOVE]
    result, feedback, _ = move.run(pose_goal(*target, quat=DOWN), 30.0)
    assert result.error_code == MoveToPose.Result.SUCCESS, result.message
    assert result.final_pose.header.frame_id == "world"
    reached = result_position(result)
    print(f"tool target {np.round(target, 4)}, reached {np.round(reached, 4)}, "
          f"position_error {result.position_error:.5f} m, "
          f"orientation_error {result.orientation_error:.5f} rad")
    assert np.linalg.norm(reached - target) <= 0.005, f"reached {reached}, target {target}"
    assert result.position_error <= 0.005 and result.orientation_error <= 0.02
    assert any(f.phase == "executing" for _, f in feedback), "the arm never moved"

    # 3. gripper: close on the (fake) cube, then open; widths measured on joint_states
    def width():
        joints = recorder.latest()[2]
        return joints["panda_finger_joint1"] + joints["panda_finger_joint2"]

    result, _, _ = grip.run(gripper_goal(width=0.0, max_effort=20.0))
    assert result.error_code == GripperCommand.Result.SUCCESS, result.message
    assert result.object_detected and abs(width() - CUBE_WIDTH) < 0.002
    result, _, _ = grip.run(gripper_goal(width=0.08))
    assert result.error_code == GripperCommand.Result.SUCCESS, result.message
    assert result.reached_goal and not result.object_detected
    assert abs(width() - 0.08) < 0.002

    # 4. none of the five node processes loaded PyBullet (all of their code ran by now)
    for name, proc in procs.items():
        assert proc.is_running(), f"{name} exited"
        maps = Path(f"/proc/{proc.pid}/maps").read_text()
        assert "rclpy" in maps, f"{name}: the check looks at the wrong process"
        assert not pybullet_loaded(proc.pid), f"{name} has pybullet loaded"
