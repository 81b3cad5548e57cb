"""arm_server + gripper_server for the UR10 with its suction cup (sim scene ur10_palletizing).

Same server code as the Panda: only `robot:=ur10` differs.
"""
import math
import time

import numpy as np
import pytest
from paths import REPO
from ros_sim_helpers import Recorder
from server_helpers import DOWN, ActionHelper, JointRecorder, ObjectWatcher, gripper_goal, pose_goal, result_position

from robot_tasks_interfaces.action import GripperCommand, MoveToPose
from ur_msgs.msg import IOStates

pytestmark = [pytest.mark.timeout(300), pytest.mark.ros, pytest.mark.sim, pytest.mark.slow]

Code = MoveToPose.Result
NS = "/ur10"
SUCTION = GripperCommand.Goal.SUCTION
VACUUM_SWITCH = 16       # tool digital in 0 (config/ur10_palletizing.yaml)


@pytest.fixture(scope="module")
def sim(launcher, probe):
    launcher.start_module("robot_tasks.nodes.sim", "sim",
                          params={"scene": "ur10_palletizing", "seed": 3,
                                  "real_time_factor": 1.0, "camera_rate": 0.0,
                                  "object_rate": 10.0})
    # robot:=ur10 comes from the shipped params file (checks that it loads as well)
    params_file = ["--ros-args", "--params-file", str(REPO / "config" / "ur10_arm.yaml")]
    for module, name in (("robot_tasks.nodes.arm_server", "arm_server"),
                         ("robot_tasks.nodes.gripper_server", "gripper_server")):
        launcher.start_module(module, name, params={"use_sim_time": True},
                              remaps={"__ns": NS}, args=params_file)
    move = ActionHelper(probe, MoveToPose, f"{NS}/move_to_pose")
    grip = ActionHelper(probe, GripperCommand, f"{NS}/gripper_command")
    for helper in (move, grip):
        helper.wait_ready(60.0)
    recorder = JointRecorder(probe, f"{NS}/joint_states")
    objects = ObjectWatcher(probe)
    attached = Recorder(probe, IOStates, f"{NS}/io_and_status_controller/io_states", keep=10)   # the vacuum switch
    probe.wait_for(lambda: recorder.latest() is not None and "bin_0" in objects.objects,
                   "sim joint_states and objects", 30.0)
    return move, grip, objects, attached


def test_free_and_planned_moves(sim):
    move = sim[0]
    started = time.monotonic()
    result, _, _ = move.run(pose_goal(0.6, 0.3, 1.0), 60.0)
    took = time.monotonic() - started
    assert result.error_code == Code.SUCCESS, result.message
    assert np.linalg.norm(result_position(result) - [0.6, 0.3, 1.0]) <= 0.005
    print(f"ur10 FREE MoveToPose: {took:.2f} s wall, error {result.position_error * 1000:.2f} mm")
    result, _, _ = move.run(pose_goal(0.3, -0.7, 0.6, motion=MoveToPose.Goal.PLANNED), 60.0)
    assert result.error_code == Code.SUCCESS, result.message


def test_suction_picks_a_bin_and_reports_it(sim):
    move, grip, objects, attached = sim
    bin_pos = objects.position("bin_0")
    _, roll = objects.yaw_and_roll("bin_0")
    upside_down = abs(abs(roll) - math.pi) < 0.3
    # Upside down: its floor faces up; upright: reach inside onto its floor (8 mm thick).
    top_z = bin_pos[2] + 0.06 if upside_down else bin_pos[2] - 0.06 + 0.008
    top = np.array([bin_pos[0], bin_pos[1], top_z])

    result, _, _ = move.run(pose_goal(*(top + [0, 0, 0.15]), quat=DOWN), 60.0)
    assert result.error_code == Code.SUCCESS, result.message
    result, _, _ = grip.run(gripper_goal(mode=SUCTION, suction_on=False))
    assert result.error_code == GripperCommand.Result.SUCCESS, result.message
    result, _, _ = move.run(pose_goal(*(top - [0, 0, 0.004]), quat=DOWN, position_tolerance=0.01,
                                      motion=MoveToPose.Goal.CARTESIAN), 60.0)
    assert result.error_code == Code.SUCCESS, result.message

    result, _, _ = grip.run(gripper_goal(mode=SUCTION, suction_on=True))
    assert result.error_code == GripperCommand.Result.SUCCESS, result.message
    assert result.object_detected and result.reached_goal, result.message
    attached.wait_for(lambda m: m.digital_in_states[VACUUM_SWITCH].state, "the vacuum switch on", 5.0)

    result, _, _ = move.run(pose_goal(*(top + [0, 0, 0.2]), quat=DOWN,
                                      motion=MoveToPose.Goal.CARTESIAN), 60.0)
    assert result.error_code == Code.SUCCESS, result.message
    time.sleep(0.3)
    assert objects.position("bin_0")[2] > bin_pos[2] + 0.15, "the bin stayed on the belt"

    result, _, _ = grip.run(gripper_goal(mode=SUCTION, suction_on=False))
    assert result.error_code == GripperCommand.Result.SUCCESS, result.message
    assert not result.object_detected
    attached.wait_for(lambda m: not m.digital_in_states[VACUUM_SWITCH].state, "the vacuum switch off", 5.0)
    result, _, _ = grip.run(gripper_goal(width=0.04))
    assert result.error_code == GripperCommand.Result.MODE_NOT_SUPPORTED, result.message
