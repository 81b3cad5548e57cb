"""compliance_server with no robot behind it: a goal ends NO_STATE with the topic named, fast,
and the server keeps serving (a real process over loopback DDS, no sim)."""
from __future__ import annotations

import pytest

from robot_tasks.ros.error_codes import code_name
from robot_tasks_interfaces.action import CompliantMove

pytestmark = [pytest.mark.ros, pytest.mark.timeout(60)]


def test_without_controller_state_a_goal_ends_no_state(launcher, ros_node, action_clients):
    server = launcher.start_module("robot_tasks.nodes.compliance_server", name="compliance_server",
                                   params={"robot_namespace": "nobody", "switch_timeout": 1.0})
    client = action_clients.wait_for_server(CompliantMove, "compliant_move", timeout=20.0)
    for _ in range(2):                                  # and again: it still serves
        goal = CompliantMove.Goal(controller="osc", duration=0.5)
        goal.target.pose.orientation.w = 1.0
        handle = ros_node.wait_future(client.send_goal_async(goal), 10.0, "goal response")
        result = ros_node.wait_future(handle.get_result_async(), 10.0, "result").result
        assert code_name(CompliantMove.Result, result.error_code) == "NO_STATE", result.message
        assert "nobody/controller_state" in result.message
    assert server.is_running()
