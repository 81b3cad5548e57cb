"""NodeStack: a bringup file's nodes under the harness, killed and restarted by name."""
from __future__ import annotations

import pytest
import yaml

from robot_tasks.testing.launcher import HarnessError
from robot_tasks.testing.stack import NodeStack

pytestmark = [pytest.mark.ros, pytest.mark.timeout(90)]


def _bringup_file(tmp_path):
    """Two gripper servers (they start without any robot behind them), one in its own namespace
    via a remapping, with a parameter the stack's override must change."""
    path = tmp_path / "two_grippers.yaml"
    path.write_text(yaml.safe_dump({
        "bringup": {"ros__parameters": {"nodes": ["left", "right"],
                                        "left": {"executable": "gripper_server"},
                                        "right": {"executable": "gripper_server", "remappings": ["__ns:=/r"]}}},
        "left": {"ros__parameters": {"robot": "ur10"}},
        "right": {"ros__parameters": {"robot": "panda"}}}))
    return path


def test_a_killed_node_comes_back_with_the_same_command_line(launcher, ros_node, action_clients, tmp_path):
    from robot_tasks_interfaces.action import GripperCommand

    stack = NodeStack(launcher, _bringup_file(tmp_path), tmp_path, overrides={"left": {"robot": "panda"}})
    stack.start_all()
    for name in ("gripper_command", "/r/gripper_command"):
        action_clients.wait_for_server(GripperCommand, name, timeout=30.0)
    first = stack.pids()
    assert set(first) == {"left", "right"}
    assert "robot: panda" in (tmp_path / "params" / "two_grippers.yaml").read_text().split("left:")[-1]

    stack.kill("left")
    assert set(stack.pids()) == {"right"}
    ros_node.wait_for(lambda: True, "anything")   # a killed node does not fail the harness's waits
    with pytest.raises(HarnessError, match="still running"):
        stack.start("right")
    with pytest.raises(HarnessError, match="no node 'middle'"):
        stack.start("middle")

    again = stack.start("left")
    assert again.argv == stack.argv["left"] and again.pid != first["left"]
    client = action_clients.create(GripperCommand, "gripper_command")
    ros_node.wait_for(lambda: launcher.processes[-1].log_path.read_text().count("parallel gripper") == 1,
                      "the restarted server's start-up line (panda: a parallel gripper)", 30.0)
    ros_node.wait_for_action_server(GripperCommand, "gripper_command", timeout=30.0, client=client)
    assert stack.kills == {"left": 1, "right": 0}
