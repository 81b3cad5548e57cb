"""Starting and stopping the sim node: the CLI path, namespaces, rtf 0, signals, bad params."""
from __future__ import annotations

import os
import signal
import sys
import time

import pytest
from ros_sim_helpers import CLOCK_QOS, Recorder
from rosgraph_msgs.msg import Clock
from sensor_msgs.msg import JointState

from robot_tasks.testing.ros_test_node import wait_until

pytestmark = [pytest.mark.ros, pytest.mark.sim]


def _seconds(clock_msg) -> float:
    return clock_msg.clock.sec + clock_msg.clock.nanosec * 1e-9


def test_cli_starts_the_two_arm_scene_faster_than_real_time(launcher, ros_node):
    proc = launcher.start([sys.executable, "-m", "robot_tasks.cli", "sim", "--scene", "franka_pyramid",
                           "--seed", "2", "--rtf", "0", "-p", "camera_rate:=0"],
                          name="robot-tasks-sim")
    left = Recorder(ros_node, JointState, "/panda_1/joint_states")
    right = Recorder(ros_node, JointState, "/panda_2/joint_states")
    clock = Recorder(ros_node, Clock, "/clock", qos=CLOCK_QOS)
    assert left.latest(30.0).name[0] == "panda_joint1"
    assert right.latest(10.0).name[0] == "panda_joint1"
    first = _seconds(clock.latest())
    time.sleep(1.0)
    advanced = _seconds(clock.latest()) - first
    assert advanced > 2.0, f"rtf 0 advanced sim time only {advanced:.2f} s in ~1 wall second"
    assert proc.stop() == "SIGINT rc=0"


def test_layout_parameter_builds_the_pyramid(launcher, ros_node):
    from robot_tasks.sim.scenes.franka_pyramid import pyramid_slots
    from robot_tasks_interfaces.msg import ObjectStateArray

    launcher.start_module("robot_tasks.nodes.sim", name="sim_pyramid",
                          params={"scene": "franka_pyramid", "layout": "pyramid", "camera_rate": 0.0})
    objects = Recorder(ros_node, ObjectStateArray, "/objects").latest(30.0).objects
    centres = sorted((round(o.pose.position.z, 2), round(o.pose.position.y, 3)) for o in objects if o.name.endswith("_cube"))
    assert centres == sorted((round(z + 0.025, 2), round(y, 3)) for _x, y, z in pyramid_slots())


def test_namespace_parameter_and_sigterm_stop(launcher, ros_node):
    proc = launcher.start_module("robot_tasks.nodes.sim", name="sim_ns",
                                 params={"scene": "franka_stacking", "camera_rate": 0.0,
                                         "namespaces.panda": "left_arm"})
    Recorder(ros_node, JointState, "/left_arm/joint_states").latest(30.0)
    ros_node.wait_for_publisher("/left_arm/franka_gripper/joint_states")
    assert ros_node.node.count_publishers("/panda/joint_states") == 0
    os.killpg(proc.pid, signal.SIGTERM)
    assert proc.popen.wait(timeout=10.0) == 0
    assert "stopping" in proc.log_path.read_text()


@pytest.mark.parametrize("params, reason", [
    ({"scene": "no_such_scene"}, "parameter 'scene': unknown scene 'no_such_scene'"),
    ({"real_time_factor": -1.0}, "parameter 'real_time_factor' must be a finite number >= 0"),
    ({"camera_width": 3}, "parameter 'camera_width' must be an integer in [16, 4096]"),
    ({"scene": "franka_pyramid", "layout": "tower"}, "parameter 'layout': 'tower' does not fit scene franka_pyramid"),
    ({"scene": "franka_stacking", "layout": "pyramid"}, "parameter 'layout': 'pyramid' does not fit scene franka_stacking"),
])
def test_bad_parameters_exit_with_code_2_and_name_the_parameter(launcher, params, reason):
    argv = [sys.executable, "-m", "robot_tasks.nodes.sim", "--ros-args"]
    for key, value in params.items():
        argv += ["-p", f"{key}:={value}"]
    proc = launcher.start(argv, name="sim_bad", may_exit=True)
    wait_until(lambda: not proc.is_running(), "the sim node to exit", 30.0)
    assert proc.popen.returncode == 2
    assert reason in proc.log_path.read_text()
