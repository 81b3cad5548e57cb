"""Stopping an arm the way ros2_control stops it, on the sim and on a stand-in JTC.

A real joint_trajectory_controller (JTC) stops only when its FollowJointTrajectory goal is
cancelled (it then holds the measured position); an empty trajectory on its topic is
rejected ("Empty trajectory received.") and the arm moves on. So a cancelled MoveToJoints
goal, a goal that times out and a halted tree must each reach the controller as an action
cancel, and the arm must be still within 100 ms of sim time -- on the sim (PyBullet, a
driver with JTC's interfaces) and on a stand-in JTC written from ros2_controllers' docs
(test/support/jtc_standin.py), which the servers did not write. Nothing may ever arrive
on the controller's topic: the servers speak the action only.

The reference time of each stop is the newest joint_states stamp the test had seen when
the stop was asked for (a cancel sent, a TIMEOUT result received, an ExecuteTree cancel
sent), so transit of the stop itself counts against the 100 ms.
"""
import time

import numpy as np
import pytest
from paths import TEST_TREES
from server_helpers import FAKE_DRIVER, ActionHelper, JointRecorder, joints_goal
from trajectory_msgs.msg import JointTrajectory

from robot_tasks_interfaces.action import ExecuteTree, MoveToJoints

pytestmark = [pytest.mark.timeout(300), pytest.mark.ros]

PANDA_ARM = [f"panda_joint{i}" for i in range(1, 8)]
HOME = [0.0, -0.785, 0.0, -2.356, 0.0, 1.571, 0.785]
FAR = [1.2] + HOME[1:]
STILL = 2e-3          # rad: the arm moves less than this from the stop on
STOP_BOUND = 0.1      # s of the driver's clock


@pytest.fixture(scope="module")
def cells(launcher, probe):
    """Two cells side by side: the sim under /panda, the stand-in JTC under /standin."""
    launcher.start_module("robot_tasks.nodes.sim", "sim",
                          params={"scene": "franka_stacking", "real_time_factor": 1.0,
                                  "camera_rate": 0.0, "object_rate": 0.0})
    launcher.start_script(FAKE_DRIVER, "fake_driver", remaps={"__ns": "/standin"})
    cells = {}
    for name, ns, sim_time in (("sim", "/panda", True), ("standin", "/standin", False)):
        launcher.start_module("robot_tasks.nodes.arm_server", "arm_server",
                              params={"robot": "panda", "use_sim_time": sim_time}, remaps={"__ns": ns})
        launcher.start_module("robot_tasks.nodes.tree_executor", "tree_executor",
                              params={"tree_dirs": [str(TEST_TREES)], "include_default_trees": False,
                                      "groot2_port": 0, "use_sim_time": sim_time},
                              remaps={"__ns": ns})
        topic_seen = []
        probe.node.create_subscription(JointTrajectory, f"{ns}/joint_trajectory_controller/joint_trajectory",
                                       topic_seen.append, 10)
        cell = {"ns": ns, "joints": JointRecorder(probe, f"{ns}/joint_states"), "topic_seen": topic_seen,
                "move": ActionHelper(probe, MoveToJoints, f"{ns}/move_to_joints"),
                "tree": ActionHelper(probe, ExecuteTree, f"{ns}/execute_tree")}
        cell["move"].wait_ready(60.0)
        cell["tree"].wait_ready(60.0)
        cells[name] = cell
    return cells


@pytest.fixture(params=["sim", "standin"])
def cell(request, cells):
    cell = cells[request.param]
    result, _, _ = cell["move"].run(joints_goal(PANDA_ARM, HOME), 60.0)   # every case starts at home
    assert result.error_code == MoveToJoints.Result.SUCCESS, result.message
    yield cell
    assert cell["topic_seen"] == [], "a server published on the controller's topic (the action is the way)"


def _latest_stamp(cell) -> float:
    return cell["joints"].latest()[0]


def _wait_moving(cell, timeout=20.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        sample = cell["joints"].latest()
        if sample and abs(sample[2]["panda_joint1"] - HOME[0]) > 0.05:
            return
        time.sleep(0.01)
    raise AssertionError("the arm never started moving")


def _stopped_after(cell, asked_at_stamp: float, settle_wall: float = 1.0) -> tuple[float, float]:
    """(stop delay in driver seconds, joint1 where it stopped): the first stamp after which
    the arm stays within STILL of where it is then."""
    time.sleep(settle_wall)
    samples = [s for s in cell["joints"].since(0.0) if s[0] >= asked_at_stamp - 0.05]
    q = np.array([[s[2][j] for j in PANDA_ARM] for s in samples])
    stamps = np.array([s[0] for s in samples])
    for k in range(len(samples)):
        if np.max(np.abs(q[k:] - q[k])) < STILL:
            delay = max(0.0, stamps[k] - asked_at_stamp)
            print(f"{cell['ns']}: still {delay * 1000:.0f} ms after the stop was asked for")
            return delay, float(q[k][0])
    raise AssertionError("the arm never came to rest")


def test_a_cancelled_goal_stops_the_arm_within_100_ms(cell, probe):
    handle, _ = cell["move"].send(joints_goal(PANDA_ARM, FAR, velocity_scaling=0.15))
    _wait_moving(cell)
    asked = _latest_stamp(cell)
    probe.wait_future(probe.run_on_executor(handle.cancel_goal_async, "cancel sent"), 10.0, "cancel response")
    status, result = cell["move"].result(handle)
    assert result.error_code == MoveToJoints.Result.CANCELLED, result.message
    delay, joint1 = _stopped_after(cell, asked)
    assert delay <= STOP_BOUND, f"{cell['ns']}: the arm moved on for {delay * 1000:.0f} ms after the cancel"
    assert 0.05 < joint1 < FAR[0] - 0.1


def test_a_goal_that_times_out_stops_the_arm_within_100_ms(cell):
    handle, _ = cell["move"].send(joints_goal(PANDA_ARM, FAR, velocity_scaling=0.15, timeout=1.5))
    _, result = cell["move"].result(handle)
    asked = _latest_stamp(cell)
    assert result.error_code == MoveToJoints.Result.TIMEOUT, result.message
    delay, joint1 = _stopped_after(cell, asked)
    assert delay <= STOP_BOUND, f"{cell['ns']}: the arm moved on for {delay * 1000:.0f} ms after the timeout"
    assert 0.05 < joint1 < FAR[0] - 0.1


def test_a_halted_tree_stops_the_arm_within_100_ms(cell, probe):
    payload = (f"{{arm_action: '{cell['ns']}/move_to_joints', joints: '{';'.join(PANDA_ARM)}', "
               f"q: '{';'.join(str(v) for v in FAR)}'}}")
    handle, _ = cell["tree"].send(ExecuteTree.Goal(target_tree="LongJointMove", payload=payload))
    _wait_moving(cell)
    asked = _latest_stamp(cell)
    probe.wait_future(probe.run_on_executor(handle.cancel_goal_async, "cancel sent"), 10.0, "cancel response")
    _, result = cell["tree"].result(handle)
    assert result.error_code == ExecuteTree.Result.CANCELLED, result.return_message
    delay, joint1 = _stopped_after(cell, asked)
    assert delay <= STOP_BOUND, f"{cell['ns']}: the arm moved on for {delay * 1000:.0f} ms after the halt"
    assert 0.05 < joint1 < FAR[0] - 0.1
