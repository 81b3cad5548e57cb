"""compliance_server with no robot behind it, or a controller_manager that does not answer: a
goal ends SWITCH_FAILED naming the controller_manager service, within the server's
switch_timeout, and the server keeps serving (real processes over loopback DDS, no sim)."""
from __future__ import annotations

import time

import pytest
from paths import REPO

from controller_manager_msgs.srv import ListControllers
from robot_tasks.ros.error_codes import code_name
from robot_tasks_interfaces.action import CompliantMove

pytestmark = [pytest.mark.ros, pytest.mark.timeout(60)]
SUPPORT = REPO / "test" / "support"


def test_without_a_controller_manager_a_goal_fails_within_the_timeout(launcher, ros_node, action_clients):
    server = launcher.start_module("robot_tasks.nodes.compliance_server", name="compliance_server",
                                   params={"robot_namespace": "nobody", "switch_timeout": 1.0})
    client = action_clients.wait_for_server(CompliantMove, "compliant_move", timeout=20.0)
    for _ in range(2):                                  # and again: it still serves
        goal = CompliantMove.Goal(controller="osc", duration=0.5)
        goal.target.pose.orientation.w = 1.0
        handle = ros_node.wait_future(client.send_goal_async(goal), 10.0, "goal response")
        start = time.monotonic()
        result = ros_node.wait_future(handle.get_result_async(), 10.0, "result").result
        assert time.monotonic() - start < 3.0, "the timeout is switch_timeout (1 s), not longer"
        assert code_name(CompliantMove.Result, result.error_code) == "SWITCH_FAILED", result.message
        assert "'/nobody/controller_manager/list_controllers' is not available (waited 1 s)" in result.message
    assert server.is_running()


def test_a_controller_manager_that_does_not_answer_fails_the_goal_within_the_timeout(
        launcher, ros_node, action_clients):
    launcher.start_script(SUPPORT / "slow_controller_manager.py", name="controller_manager",
                          params={"delay": 2.5}, remaps={"__ns": "/slow"})
    launcher.start_module("robot_tasks.nodes.compliance_server", name="compliance_server",
                          params={"robot_namespace": "slow", "switch_timeout": 1.0})
    client = action_clients.wait_for_server(CompliantMove, "compliant_move", timeout=20.0)
    probe = ros_node.node.create_client(ListControllers, "/slow/controller_manager/list_controllers")
    ros_node.wait_for(probe.service_is_ready, "the slow controller_manager", 20.0)
    ros_node.node.destroy_client(probe)
    time.sleep(1.0)                        # the server's discovery of it too
    goal = CompliantMove.Goal(controller="osc", duration=0.5)
    goal.target.pose.orientation.w = 1.0
    handle = ros_node.wait_future(client.send_goal_async(goal), 10.0, "goal response")
    result = ros_node.wait_future(handle.get_result_async(), 10.0, "result").result
    assert code_name(CompliantMove.Result, result.error_code) == "SWITCH_FAILED", result.message
    assert result.message == ("no answer from '/slow/controller_manager/list_controllers' to "
                              "list_controllers within 1 s"), result.message
