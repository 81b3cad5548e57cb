"""A leaf whose result never arrives asks again instead of running forever.

The stall behind 1 in ~35 demo runs: the tree_executor made its action client on the
first tick, the server finished the goal, and the get_result answer was lost in
discovery (the server's DDS drops a response to a reader it has not matched yet).
The leaf stayed RUNNING, the tree kept ticking with nothing changing, and no
tree_status went out. The test server here (lose_result_requests) leaves the first
result requests unanswered, which is exactly what the client saw.
"""
from __future__ import annotations

import pytest

pytestmark = [pytest.mark.ros, pytest.mark.timeout(60)]


def run_single_move(ros_node, action_clients, timeout: float):
    from robot_tasks_interfaces.action import ExecuteTree

    client = action_clients.wait_for_server(ExecuteTree, "execute_tree")
    handle = ros_node.wait_future(client.send_goal_async(
        ExecuteTree.Goal(target_tree="SingleMove", payload="{q: [0.5]}")), 5.0, "ExecuteTree goal response")
    assert handle.accepted
    return ros_node.wait_future(handle.get_result_async(), timeout, "the SingleMove result").result


def test_a_lost_result_is_asked_for_again(ros_node, start_server, start_executor, action_clients):
    from robot_tasks_interfaces.action import ExecuteTree, MoveToJoints

    _, events = start_server(duration_s=0.1, lose_result_requests=1)
    ros_node.wait_for_action_server(MoveToJoints, "move_to_joints")
    start_executor()
    result = run_single_move(ros_node, action_clients, timeout=15.0)
    assert (result.node_status, result.error_code) == ("SUCCESS", ExecuteTree.Result.SUCCESS), \
        result.return_message
    names = events.names()
    assert names.count("goal") == 1, names  # the goal ran once: only its result was asked again
    assert names.count("result_request_lost") == 1 and names.count("succeeded") == 1, names


def test_results_that_never_come_fail_with_result_lost(ros_node, start_server, start_executor, action_clients):
    from robot_tasks_interfaces.action import ExecuteTree, MoveToJoints

    _, events = start_server(duration_s=0.1, lose_result_requests=1000)
    ros_node.wait_for_action_server(MoveToJoints, "move_to_joints")
    start_executor()
    result = run_single_move(ros_node, action_clients, timeout=20.0)
    assert (result.node_status, result.error_code) == ("FAILURE", ExecuteTree.Result.TREE_FAILED)
    assert "RESULT_LOST" in result.return_message and "SingleMove/only" in result.return_message
    # the first request, then MAX_RESULT_REQUESTS (5) more once the goal had ended, then it gives up
    assert events.names().count("result_request_lost") == 6, events.names()
