"""`robot-tasks bringup` with real processes over loopback DDS, and config/franka.rviz
checked against the live ROS graph.

Only the sim is started here (the servers are tested by their own suites): enough to
see prefixed output, a clean Ctrl-C shutdown with nothing left behind, a dying node
taking the others down, and every rviz topic published with a QoS rviz can receive.
"""
from __future__ import annotations

import os
import signal
import sys
import time
from pathlib import Path

import pytest
from paths import REPO
import yaml

from robot_tasks.testing.harness import (RosTestNode, fastdds_segments,
                                     fastdds_segments_of)

pytestmark = [pytest.mark.ros, pytest.mark.sim, pytest.mark.slow]

CONFIG = REPO / "config" / "franka_stacking.yaml"
RVIZ = REPO / "config" / "franka.rviz"
ONLY_SIM = ["--skip", "arm_server", "--skip", "gripper_server", "--skip", "perception_server",
            "--skip", "tree_executor"]


# This module's own domain (overrides the session one); `launcher` stays test/conftest.py's.
from module_scoped import ros_env  # noqa: E402, F401, F811  (a fixture, used by name)


def bringup_argv(*extra):
    return [sys.executable, "-m", "robot_tasks.cli", "bringup", str(CONFIG), *extra]


def children_of(pid: int) -> list[int]:
    kids = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                stat = Path(f"/proc/{entry}/stat").read_text()
            except OSError:
                continue
            if int(stat.rsplit(")", 1)[1].split()[1]) == pid:
                kids.append(int(entry))
    return kids


def wait_until(predicate, what, timeout):
    deadline = time.monotonic() + timeout
    while not predicate():
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        time.sleep(0.1)


def rviz_topics():
    """(display class, topic, reliability, durability) of every display that subscribes."""
    displays = yaml.safe_load(RVIZ.read_text())["Visualization Manager"]["Displays"]
    found = []
    for display in displays:
        for key in ("Topic", "Description Topic"):
            if isinstance(display.get(key), dict):
                topic = display[key]
                found.append((display["Class"], topic["Value"], topic["Reliability Policy"],
                              topic["Durability Policy"]))
    return found


def test_rviz_config_shows_robot_markers_and_camera():
    classes = {c for c, *_ in rviz_topics()}
    assert classes == {"rviz_default_plugins/RobotModel", "rviz_default_plugins/MarkerArray",
                       "rviz_default_plugins/Image"}
    assert yaml.safe_load(RVIZ.read_text())["Visualization Manager"]["Global Options"]["Fixed Frame"] == "world"


def test_bringup_runs_the_sim_publishes_rviz_topics_and_stops_cleanly_on_ctrl_c(ros_env, launcher):
    proc = launcher.start(bringup_argv(*ONLY_SIM, "--set", "sim.camera_rate=2.0"), name="bringup")
    with RosTestNode("bringup_probe", ros_env, launcher=launcher) as probe:
        for display, topic, reliability, durability in rviz_topics():
            probe.wait_for_publisher(topic, timeout=60.0)
            for info in probe.node.get_publishers_info_by_topic(topic):
                qos = info.qos_profile
                if reliability == "Reliable":
                    assert qos.reliability.name == "RELIABLE", f"{display} {topic}: publisher is best effort"
                if durability == "Transient Local":
                    assert qos.durability.name == "TRANSIENT_LOCAL", f"{display} {topic}: not latched"
        kids = children_of(proc.pid)
        assert len(kids) == 1, f"bringup should run exactly the sim, runs {kids}"
        kid_segments = fastdds_segments_of(kids[0])
    assert proc.stop() == "SIGINT rc=0"
    log = proc.log_path.read_text()
    assert "bringup: starting sim (ROS_DOMAIN_ID=" in log
    assert any(line.startswith("[sim] ") for line in log.splitlines()), log[-2000:]
    assert "bringup: stopped (sim=0)" in log, log[-2000:]
    assert not any(Path(f"/proc/{k}").exists() for k in kids), "the sim outlived bringup"
    assert not (kid_segments & fastdds_segments()), "the sim left Fast DDS shared memory behind"


def test_a_node_that_dies_stops_the_others_and_bringup_exits_1(ros_env, launcher):
    argv = bringup_argv("--skip", "arm_server", "--skip", "gripper_server", "--skip", "perception_server",
                        "--set", "sim.scene=no_such_scene")
    proc = launcher.start(argv, name="bringup_fail", may_exit=True)
    wait_until(lambda: not proc.is_running(), "bringup to exit by itself", timeout=90.0)
    log = proc.log_path.read_text()
    assert proc.popen.returncode == 1, log[-2000:]
    assert "bringup: node 'sim' exited with code 2; stopping the others" in log
    assert "unknown scene 'no_such_scene'" in log
    assert "bringup: stopped (sim=2, tree_executor=" in log


def test_a_respawning_node_comes_back_after_it_exits(ros_env, launcher):
    """perception_server has `respawn: true, respawn_delay: 2.0` in the file (launch: respawn=...)."""
    only_perception = [a for name in ("sim", "arm_server", "gripper_server", "tree_executor")
                       for a in ("--skip", name)]
    proc = launcher.start(bringup_argv(*only_perception), name="bringup_respawn")
    wait_until(lambda: len(children_of(proc.pid)) == 1 and "perception_server" in proc.log_path.read_text(),
               "perception_server to start", 60.0)
    first = children_of(proc.pid)[0]
    time.sleep(2.0)                                  # let it finish starting before it is stopped
    os.kill(first, signal.SIGTERM)                   # it exits cleanly (code 0) ...
    wait_until(lambda: "bringup: respawned" in proc.log_path.read_text(), "the respawn", 30.0)
    log = proc.log_path.read_text()
    assert "[perception_server] bringup: exited with code 0; respawning in 2 s" in log, log[-2000:]
    second = children_of(proc.pid)
    assert len(second) == 1 and second[0] != first, second
    assert proc.is_running(), "a respawning node's exit does not stop bringup"
    assert proc.stop() == "SIGINT rc=0"
    assert not any(Path(f"/proc/{k}").exists() for k in second), "the respawned node outlived bringup"
