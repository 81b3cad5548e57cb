"""`robot-tasks env`: its exports, sourced by bash, let a plain rclpy process see the nodes.

A user's terminal is played by a bash whose environment has no DDS settings (and the
ignored ROS_LOCALHOST_ONLY). It evaluates the command's output; the environment that
results is checked to be the loopback one before any ROS process starts in it, then
support/node_list.py (plain rclpy, nothing from robot_tasks) must see a node the
project started, over loopback DDS in the test's own domain.
"""
from __future__ import annotations

import subprocess
import sys

import pytest
from paths import SUPPORT

from robot_tasks.commands.env import exports
from robot_tasks.ros.dds import loopback_dds_settings

DDS_VARIABLES = ("ROS_DOMAIN_ID", "ROS_AUTOMATIC_DISCOVERY_RANGE", "FASTDDS_DEFAULT_PROFILES_FILE",
                 "SKIP_DEFAULT_XML_FILE", "RMW_IMPLEMENTATION", "ROBOT_TASKS_DDS")


def fresh_terminal(ros_env) -> dict[str, str]:
    """The test's process environment without any DDS setting, as a new terminal has it."""
    env = {k: v for k, v in ros_env.subprocess_env().items() if k not in DDS_VARIABLES}
    env["ROS_LOCALHOST_ONLY"] = "1"
    return env


def sourced(env: dict[str, str], *args: str) -> dict[str, str]:
    """The environment bash has after `eval "$(robot-tasks env ARGS)"` (no ROS starts here)."""
    command = " ".join([sys.executable, "-m", "robot_tasks.cli", "env", *args])
    run = subprocess.run(["bash", "-c", f'eval "$({command})" && env -0'], env=env,
                         capture_output=True, timeout=30)
    assert run.returncode == 0, run.stderr.decode()
    return dict(item.split("=", 1) for item in run.stdout.decode().split("\0") if "=" in item)


@pytest.mark.ros
@pytest.mark.timeout(120)
def test_a_terminal_that_sources_the_exports_sees_the_nodes(ros_env, launcher):
    launcher.start_script(SUPPORT / "echo_node.py", "env_echo")
    terminal = sourced(fresh_terminal(ros_env), "--domain-id", str(ros_env.domain_id))

    # the network rule first: nothing starts in this environment unless it is loopback
    for name, value in loopback_dds_settings(ros_env.domain_id).items():
        assert terminal[name] == value, name
    assert "ROS_LOCALHOST_ONLY" not in terminal and "ROBOT_TASKS_DDS" not in terminal
    assert terminal["RMW_IMPLEMENTATION"] == "rmw_fastrtps_cpp"

    seen = subprocess.run([sys.executable, str(SUPPORT / "node_list.py"), "env_echo", "--wait", "20"],
                          env=terminal, capture_output=True, text=True, timeout=60)
    assert seen.returncode == 0, seen.stdout + seen.stderr
    assert "env_echo" in seen.stdout.split()


def test_the_domain_comes_from_the_argument_then_the_shell_then_0():
    def domain(lines):
        return [line for line in lines if line.startswith("export ROS_DOMAIN_ID=")]

    assert domain(exports(17, {"ROS_DOMAIN_ID": "5"})) == ["export ROS_DOMAIN_ID=17"]
    assert domain(exports(None, {"ROS_DOMAIN_ID": "5"})) == ["export ROS_DOMAIN_ID=5"]
    lines = exports(None, {})
    assert domain(lines) == ["export ROS_DOMAIN_ID=0"]
    assert any("cannot be read" in line for line in lines)   # says what it cannot know


def test_under_the_opt_out_it_repeats_the_shells_own_settings():
    lines = exports(None, {"ROBOT_TASKS_DDS": "system", "ROS_DOMAIN_ID": "42",
                           "CYCLONEDDS_URI": "file:///etc/cyclone.xml", "HOME": "/root"})
    exported = [line for line in lines if not line.startswith("#")]
    assert exported == ["export CYCLONEDDS_URI=file:///etc/cyclone.xml", "export ROS_DOMAIN_ID=42"]
    assert "FASTDDS_DEFAULT_PROFILES_FILE" not in "\n".join(lines)


def test_a_bad_domain_id_is_refused(capsys):
    from robot_tasks.cli import main

    assert main(["env", "--domain-id", "300"]) == 2
    assert "ROS_DOMAIN_ID must be an int in 0..232, got 300" in capsys.readouterr().err
