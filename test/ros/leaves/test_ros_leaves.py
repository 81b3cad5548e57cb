"""Topic and service leaves inside a running tree_executor, fed by the in-test node."""
from __future__ import annotations

import time

import pytest
from paths import PLUGIN_TREES, REPO, SUPPORT

pytestmark = [pytest.mark.ros, pytest.mark.timeout(60)]


def execute(ros_node, action_clients, target: str, timeout: float = 10.0, wait: bool = True):
    from robot_tasks_interfaces.action import ExecuteTree

    client = action_clients.wait_for_server(ExecuteTree, "execute_tree")
    handle = ros_node.wait_future(client.send_goal_async(ExecuteTree.Goal(target_tree=target)), 5.0)
    future = handle.get_result_async()
    return future if not wait else ros_node.wait_future(future, timeout, f"result of {target}").result


def test_topic_condition_waits_for_a_message_then_copies_it_and_calls_a_service(ros_node, start_executor, action_clients):
    from std_msgs.msg import String
    from std_srvs.srv import Trigger

    calls = []

    def on_trigger(_request, response):
        calls.append(1)
        response.success, response.message = True, "triggered"
        return response

    ros_node.node.create_service(Trigger, "/test_trigger", on_trigger)
    publisher = ros_node.node.create_publisher(String, "/go_signal", 10)
    word = ["not yet"]
    # publish every 50 ms (not once), so a message sent before the DDS match is not the only one
    ros_node.node.create_timer(0.05, lambda: publisher.publish(String(data=word[0])))
    start_executor()
    future = execute(ros_node, action_clients, "WaitForGoThenTrigger", wait=False)
    time.sleep(0.5)  # ~50 ticks seeing only "not yet"
    assert not future.done(), "the tree must wait for data == 'go'"
    word[0] = "go"
    result = ros_node.wait_future(future, 10.0, "the tree to finish after 'go'").result
    assert result.node_status == "SUCCESS", result.return_message
    assert calls == [1]


def test_stale_topic_and_missing_service_fail(ros_node, start_executor, action_clients):
    start_executor()
    result = execute(ros_node, action_clients, "StaleTopic")
    assert result.node_status == "FAILURE"
    result = execute(ros_node, action_clients, "MissingService")
    assert result.node_status == "FAILURE" and "SERVICE_UNREACHABLE" in result.return_message


def test_plugin_nodes_get_the_executor_node(ros_node, start_executor, action_clients, launcher):

    start_executor(name="plugged_executor", tree_dirs=[str(PLUGIN_TREES)], plugins=["tree_test_plugin"],
                   extra_env={"PYTHONPATH": f"{SUPPORT}:{REPO}"})
    result = execute(ros_node, action_clients, "UsesPlugin")
    assert result.node_status == "SUCCESS", result.return_message


def test_a_missing_plugin_stops_the_executor_with_a_clear_message(launcher, ros_env):
    proc = launcher.start_module("robot_tasks.nodes.tree_executor", name="bad_plugin_executor",
                                 params={"plugins": ["no_such_plugin_module"], "include_default_trees": False})
    proc.may_exit = True
    assert proc.popen.wait(timeout=20.0) == 2   # a bad parameter (plugins): exit 2, like every node
    assert "can't import plugin module 'no_such_plugin_module'" in proc.log_path.read_text()
