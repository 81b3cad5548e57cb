"""DDS is a deployment choice: the opt-out (robot_tasks.ros.dds.OPT_OUT_VARIABLE) keeps the user's own configuration for
the user-facing entry points, and nothing a test, bench or demo starts ever takes it."""
from __future__ import annotations

import os
from pathlib import Path

import pytest

from robot_tasks.process import child_environment
from robot_tasks.ros import dds
from robot_tasks.testing.procfs import inet_sockets_of

SET_BY_LOOPBACK = ("FASTDDS_DEFAULT_PROFILES_FILE", "ROS_AUTOMATIC_DISCOVERY_RANGE", "SKIP_DEFAULT_XML_FILE")


@pytest.fixture
def opted_out(monkeypatch):
    """This process's environment as a real deployment sets it: the opt-out, no loopback profile."""
    for key in SET_BY_LOOPBACK:
        monkeypatch.delenv(key, raising=False)
    monkeypatch.setenv("ROS_DOMAIN_ID", os.environ.get("ROS_DOMAIN_ID", "0"))  # restored afterwards
    monkeypatch.setenv(dds.OPT_OUT_VARIABLE, dds.OPT_OUT_VALUE)
    return monkeypatch


def test_entry_points_leave_an_opted_out_environment_alone(opted_out, capsys):
    before = dict(os.environ)
    assert dds.configure_dds() == {}
    assert dict(os.environ) == before
    assert dds.deployment_dds_settings() is None
    dds.configure_dds(domain_id=12)
    assert os.environ["ROS_DOMAIN_ID"] == "12"


@pytest.mark.parametrize("value", ["", "loopback", "SYSTEM", "sys", "1"])
def test_any_other_value_means_loopback(opted_out, value):
    opted_out.setenv(dds.OPT_OUT_VARIABLE, value)
    assert not dds.opted_out()
    dds.configure_dds()
    assert os.environ["FASTDDS_DEFAULT_PROFILES_FILE"] == str(dds.find_profile_file())


def test_forced_loopback_ignores_the_opt_out_and_removes_it(opted_out):
    dds.configure_loopback_dds()
    assert os.environ["FASTDDS_DEFAULT_PROFILES_FILE"] == str(dds.find_profile_file())
    assert dds.OPT_OUT_VARIABLE not in os.environ   # nothing started from here inherits it


def test_child_environments_of_tests_and_demos_are_loopback(opted_out, ros_env):
    for env in (dds.loopback_environment(dds.loopback_dds_settings()),       # benches, harness
                child_environment(dds.loopback_dds_settings()),              # the demos' bringup
                ros_env.subprocess_env()):                                   # test node processes
        assert dds.OPT_OUT_VARIABLE not in env
        assert env["FASTDDS_DEFAULT_PROFILES_FILE"] == str(dds.find_profile_file())
    # robot-tasks bringup by a user who opted out: the nodes get the user's environment
    assert child_environment(None)[dds.OPT_OUT_VARIABLE] == dds.OPT_OUT_VALUE


def test_a_real_node_started_by_the_harness_stays_on_loopback(opted_out, launcher, ros_node):
    """The caller's environment opts out; the tree_executor (whose main honours the opt-out)
    started through the harness still runs on the loopback profile."""
    env = launcher.env.subprocess_env()
    assert dds.OPT_OUT_VARIABLE not in env and "FASTDDS_DEFAULT_PROFILES_FILE" in env  # checked before starting
    proc = launcher.start_module("robot_tasks.nodes.tree_executor", name="opt_out_executor",
                                 params={"include_default_trees": False})
    ros_node.wait_for_node("opt_out_executor", timeout=20.0)
    child_env = dict(item.split("=", 1) for item in
                     Path(f"/proc/{proc.pid}/environ").read_text().split("\0") if "=" in item)
    assert dds.OPT_OUT_VARIABLE not in child_env
    assert child_env["FASTDDS_DEFAULT_PROFILES_FILE"] == str(dds.find_profile_file())
    sockets = inet_sockets_of(proc.pid)
    assert sockets and all(s.local_ip == "127.0.0.1" for s in sockets), [str(s) for s in sockets]
