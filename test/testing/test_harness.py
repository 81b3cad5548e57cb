"""The ROS test harness itself: discovery waits, clear failures, clean teardown."""
from __future__ import annotations

import os
import sys
import time
from pathlib import Path

import pytest
from paths import SUPPORT
from std_msgs.msg import String

from robot_tasks.process import processes_in_group
from robot_tasks.testing.launcher import HarnessError, NodeLauncher
from robot_tasks.testing.procfs import fastdds_segments, fastdds_segments_of
from robot_tasks.testing.ros_test_node import RosTestNode

TEST_NODES = SUPPORT
pytestmark = pytest.mark.ros

# A stand-in for a badly behaved node: ignores the signals given in argv[1:].
STUBBORN = ("import signal, sys, time\n"
            "for name in sys.argv[1:]: signal.signal(getattr(signal, name), signal.SIG_IGN)\n"
            "print('ready', flush=True)\n"
            "time.sleep(60)\n")


def test_started_node_is_discovered_and_talks(launcher, ros_node):
    launcher.start_script(TEST_NODES / "echo_node.py", name="echo")
    ros_node.wait_for_node("echo")
    ros_node.wait_for_subscriber("in")
    received = []
    ros_node.node.create_subscription(String, "out", lambda m: received.append(m.data), 10)
    ros_node.wait_for_publisher("out")
    pub = ros_node.node.create_publisher(String, "in", 10)
    # the echo node's subscription may match our publisher a moment after the
    # graph shows it, so publish until the echo comes back (bounded by the wait)
    ros_node.wait_for(lambda: pub.publish(String(data="hi")) or "echo: hi" in received,
                      "the echo of 'hi'", timeout=5.0)


def test_node_namespace_and_params_reach_the_node(launcher, ros_node):
    launcher.start_script(TEST_NODES / "echo_node.py", name="echo2",
                          remaps={"__ns": "/robot1"}, params={"unused": 1.5})
    ros_node.wait_for_node("/robot1/echo2")
    ros_node.wait_for_subscriber("/robot1/in")


def test_wait_timeout_names_what_was_awaited(ros_node):
    with pytest.raises(HarnessError, match="node 'no_such_node'.*ROS_DOMAIN_ID="):
        ros_node.wait_for_node("no_such_node", timeout=0.3)


def test_crashed_node_fails_the_wait_at_once_with_its_output(launcher, ros_node):
    launcher.start([sys.executable, "-c", "print('boom: bad parameter'); raise SystemExit(3)"],
                   name="crasher")
    start = time.monotonic()
    with pytest.raises(HarnessError, match=r"(?s)crasher exited \(rc=3\).*boom: bad parameter"):
        ros_node.wait_for_node("never_there", timeout=20.0)
    assert time.monotonic() - start < 10.0  # failed on the death, not on the timeout


def test_clean_node_stops_on_sigint_and_leaves_nothing(ros_env, tmp_path):
    before = fastdds_segments()
    nodes = NodeLauncher(ros_env, tmp_path)
    echo = nodes.start_script(TEST_NODES / "echo_node.py", name="echo_clean")
    with RosTestNode("probe_clean", ros_env, launcher=nodes) as probe:
        probe.wait_for_node("echo_clean")
        # the node is in the graph from early in its constructor; its last-made
        # endpoint says construction is done and SIGINT will find it spinning
        probe.wait_for_subscriber("in")
        echo.note_segments()
        mine = fastdds_segments_of(os.getpid())
    assert echo.segments, "the node should have mapped Fast DDS shared memory while running"
    assert mine, "the in-test node should have mapped Fast DDS shared memory"
    report = nodes.stop_all()
    assert report.exits == {"echo_clean": "SIGINT rc=0"}
    assert report.clean, report
    assert processes_in_group(echo.pid) == []
    left = fastdds_segments() & (echo.segments | mine)
    assert not left, f"shared memory left behind: {left}"
    assert not (fastdds_segments() - before) & (echo.segments | mine)


@pytest.mark.parametrize("ignored, ends_with", [
    (["SIGINT"], "SIGTERM rc=-15"),
    (["SIGINT", "SIGTERM"], "SIGKILL rc=-9"),
])
def test_stubborn_process_is_escalated_and_killed(ros_env, tmp_path, ignored, ends_with):
    nodes = NodeLauncher(ros_env, tmp_path)
    proc = nodes.start([sys.executable, "-c", STUBBORN, *ignored], name="stubborn")
    deadline = time.monotonic() + 10
    while "ready" not in proc.tail() and time.monotonic() < deadline:
        time.sleep(0.02)
    assert proc.stop(sigint_s=0.3, sigterm_s=0.3, sigkill_s=2.0) == ends_with
    assert processes_in_group(proc.pid) == []


def test_children_of_a_node_are_stopped_too(ros_env, tmp_path):
    nodes = NodeLauncher(ros_env, tmp_path)
    proc = nodes.start(["bash", "-c", "sleep 60 & sleep 60 & wait"], name="parent")
    deadline = time.monotonic() + 5
    while len(processes_in_group(proc.pid)) < 3 and time.monotonic() < deadline:
        time.sleep(0.02)
    assert len(processes_in_group(proc.pid)) == 3
    report = nodes.stop_all()
    assert report.clean, report
    assert processes_in_group(proc.pid) == []


def test_leak_check_reports_what_a_killed_node_leaves(ros_env, tmp_path):
    """The shm check can fail: SIGKILL gives Fast DDS no chance to clean up."""
    nodes = NodeLauncher(ros_env, tmp_path)
    echo = nodes.start_script(TEST_NODES / "echo_node.py", name="echo_killed")
    with RosTestNode("probe_killed", ros_env, launcher=nodes) as probe:
        probe.wait_for_node("echo_killed")
        probe.wait_for_subscriber("in")
        echo.note_segments()
    own = {s for s in echo.segments if s.endswith("_el")}
    assert own, f"expected the node's segment lock files among {echo.segments}"
    os.killpg(echo.pid, 9)
    echo.popen.wait(5)
    try:
        report = nodes.stop_all()
        assert not report.clean
        assert own <= report.leftover_segments
        with pytest.raises(HarnessError, match="shared memory"):
            report.raise_if_dirty()
    finally:  # remove the killed node's own files (the ones whose lock it held), nothing else
        for lock in own:
            for name in (lock, lock.removesuffix("_el")):
                (Path("/dev/shm") / name).unlink(missing_ok=True)
