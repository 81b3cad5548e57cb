"""tree_executor over real DDS: trees whose leaves call a real (test) action server.

Processes: the test MoveToJoints server (nodes/joint_move_server.py), the
tree_executor node, and an in-test rclpy node acting as the ExecuteTree client.
Every wait is bounded; a crashed process fails the wait with its log.
"""
from __future__ import annotations

import os
import signal
import time

import pytest

from robot_tasks.testing.ros_test_node import wait_until

pytestmark = [pytest.mark.ros, pytest.mark.timeout(60)]


@pytest.fixture
def execute_tree(ros_node, action_clients):
    """Send an ExecuteTree goal; return (result, feedback list, goal handle)."""
    from robot_tasks_interfaces.action import ExecuteTree

    client = action_clients.create(ExecuteTree, "execute_tree")

    def send(target: str, payload: str = "", timeout: float = 10.0, wait: bool = True):
        ros_node.wait_for_action_server(ExecuteTree, "execute_tree", client=client)
        feedback = []
        sent = client.send_goal_async(ExecuteTree.Goal(target_tree=target, payload=payload),
                                      feedback_callback=lambda m: feedback.append(m.feedback))
        handle = ros_node.wait_future(sent, 5.0, "ExecuteTree goal response")
        assert handle.accepted, "the executor accepts every goal and checks it afterwards"
        result_future = handle.get_result_async()
        if not wait:
            return result_future, feedback, handle
        response = ros_node.wait_future(result_future, timeout, f"ExecuteTree result for '{target}'")
        return response, feedback, handle

    return send


def status_name(code: int) -> str:
    from action_msgs.msg import GoalStatus

    return {GoalStatus.STATUS_SUCCEEDED: "SUCCEEDED", GoalStatus.STATUS_ABORTED: "ABORTED",
            GoalStatus.STATUS_CANCELED: "CANCELED"}.get(code, str(code))


def ready_server(ros_node, start_server, **params):
    from robot_tasks_interfaces.action import MoveToJoints

    proc, events = start_server(**params)
    ros_node.wait_for_action_server(MoveToJoints, params.get("action_name", "move_to_joints"))
    return proc, events


def test_tree_calling_action_server_succeeds(ros_node, start_server, start_executor, execute_tree):
    from robot_tasks_interfaces.action import ExecuteTree

    _, events = ready_server(ros_node, start_server, duration_s=0.2)
    start_executor()
    response, feedback, _ = execute_tree("MoveSequence", payload="{target: [0.3, 0.4]}")
    result = response.result
    assert status_name(response.status) == "SUCCEEDED", result.return_message
    assert (result.node_status, result.error_code) == ("SUCCESS", ExecuteTree.Result.SUCCESS)
    assert result.tick_count > 2
    goals = [e for e in events() if e["event"] == "goal"]
    assert [g["positions"] for g in goals] == [[0.1, 0.2], [0.3, 0.4]]  # the payload reached the goal
    assert events.names().count("succeeded") == 2
    assert feedback, "feedback is published while the tree runs"
    running = {path for f in feedback for path in f.running_nodes}
    assert running <= {"MoveSequence/moves/first", "MoveSequence/moves/second"} and running


def test_cancel_halts_tree_and_cancels_the_inflight_goal(ros_node, start_server, start_executor, execute_tree):
    from robot_tasks_interfaces.action import ExecuteTree

    _, events = ready_server(ros_node, start_server, duration_s=30.0)
    start_executor()
    result_future, _, handle = execute_tree("MoveSequence", payload="{target: '0;0'}", wait=False)
    wait_until(lambda: "goal" in events.names(), "the server to receive the first goal", 10.0)
    ros_node.wait_future(handle.cancel_goal_async(), 5.0, "cancel response")
    response = ros_node.wait_future(result_future, 5.0, "the cancelled run's result")
    assert status_name(response.status) == "CANCELED"
    assert response.result.error_code == ExecuteTree.Result.CANCELLED
    assert response.result.node_status == "IDLE"
    wait_until(lambda: "canceled" in events.names(), f"the server to cancel its goal (events: {events.names()})", 5.0)
    assert events.names() == ["goal", "cancel_requested", "canceled"]  # the second leaf never started


def test_missing_server_fails_with_server_unreachable(ros_node, start_executor, execute_tree):
    from robot_tasks_interfaces.action import ExecuteTree

    start_executor()
    started = time.monotonic()
    response, _, _ = execute_tree("MissingServer")
    elapsed = time.monotonic() - started
    result = response.result
    assert status_name(response.status) == "ABORTED"
    assert (result.node_status, result.error_code) == ("FAILURE", ExecuteTree.Result.TREE_FAILED)
    assert "SERVER_UNREACHABLE" in result.return_message and "MissingServer/lonely" in result.return_message
    # the leaf waited its wait_for_server_timeout (500 ms), and not much longer
    assert 0.45 <= elapsed < 5.0, elapsed


def test_server_killed_mid_goal_fails_instead_of_hanging(ros_node, start_server, start_executor, execute_tree,
                                                         short_lease_profile):
    from robot_tasks_interfaces.action import ExecuteTree

    proc, events = ready_server(ros_node, start_server, duration_s=30.0,
                                extra_env={"ROBOT_TASKS_TEST_DDS_PROFILE": str(short_lease_profile)})
    start_executor()
    result_future, _, _ = execute_tree("MoveSequence", payload="{target: '0;0'}", wait=False)
    wait_until(lambda: "goal" in events.names(), "the server to receive the goal", 10.0)
    proc.may_exit = True  # its death is the point of this test
    proc.popen.send_signal(signal.SIGKILL)
    proc.popen.wait(timeout=5.0)
    killed = time.monotonic()
    response = ros_node.wait_future(result_future, 10.0, "the result after the server died")
    result = response.result
    assert (result.node_status, result.error_code) == ("FAILURE", ExecuteTree.Result.TREE_FAILED)
    assert "SERVER_UNREACHABLE" in result.return_message and "disappeared" in result.return_message
    assert time.monotonic() - killed < 10.0


def test_server_killed_and_restarted_mid_goal_fails_within_seconds(ros_node, start_server, start_executor,
                                                                   execute_tree):
    """Issue 31: with the default DDS lease the killed server stays in the graph, and the
    restarted one never knew the goal: the leaf learns it from the new server (GoalWatch)."""
    from robot_tasks_interfaces.action import ExecuteTree

    proc, events = ready_server(ros_node, start_server, duration_s=30.0)
    start_executor()
    result_future, _, _ = execute_tree("MoveSequence", payload="{target: '0;0'}", wait=False)
    wait_until(lambda: "goal" in events.names(), "the server to receive the goal", 10.0)
    proc.may_exit = True
    proc.popen.send_signal(signal.SIGKILL)            # no goodbye: its endpoints stay in the graph
    proc.popen.wait(timeout=5.0)
    ready_server(ros_node, start_server, duration_s=30.0)   # the respawn, under the same name
    restarted = time.monotonic()
    response = ros_node.wait_future(result_future, 10.0, "the result after the server restarted")
    took = time.monotonic() - restarted
    result = response.result
    assert (result.node_status, result.error_code) == ("FAILURE", ExecuteTree.Result.TREE_FAILED)
    # the new server says it does not know the goal, or (Fast DDS sometimes notices a dead
    # process on this host early) the killed one has left the graph first
    assert "SERVER_UNREACHABLE" in result.return_message and \
        ("restarted" in result.return_message or "disappeared" in result.return_message), result.return_message
    print(f"the tree failed {took:.2f} s after the restarted server was ready")
    assert took < 3.0


def test_unknown_tree_and_bad_payload_are_rejected(ros_node, start_executor, execute_tree):
    from robot_tasks_interfaces.action import ExecuteTree

    start_executor()
    response, _, _ = execute_tree("MoveSequense")
    assert status_name(response.status) == "ABORTED"
    assert response.result.error_code == ExecuteTree.Result.UNKNOWN_TREE
    assert "MoveSequense" in response.result.return_message
    assert "did you mean 'MoveSequence'" in response.result.return_message

    for payload in ("[1, 2]", "{unclosed: [", "just text"):
        response, _, _ = execute_tree("MoveSequence", payload=payload)
        assert status_name(response.status) == "ABORTED"
        assert response.result.error_code == ExecuteTree.Result.INVALID_PAYLOAD, payload
        assert "payload" in response.result.return_message


def test_rejected_and_aborted_goals_give_their_error_codes(ros_node, start_server, start_executor, execute_tree):
    ready_server(ros_node, start_server)
    start_executor()
    response, _, _ = execute_tree("RejectedGoal")
    assert "GOAL_REJECTED" in response.result.return_message
    response, _, _ = execute_tree("AbortedGoal")
    assert "ABORTED" in response.result.return_message and "refused by test server" in \
        response.result.return_message
    # a Fallback sees the failure and the error_code port on the blackboard
    response, _, _ = execute_tree("FallbackOnFailure")
    assert response.result.node_status == "SUCCESS", response.result.return_message


def test_newer_goal_preempts_the_running_one(ros_node, start_server, start_executor, execute_tree):
    from robot_tasks_interfaces.action import ExecuteTree

    _, events = ready_server(ros_node, start_server, duration_s=30.0)
    start_executor()
    first_future, _, _ = execute_tree("MoveSequence", payload="{target: '0;0'}", wait=False)
    wait_until(lambda: "goal" in events.names(), "the first goal to reach the server", 10.0)
    second, _, _ = execute_tree("MissingServer")  # preempts, then fails on its own
    first = ros_node.wait_future(first_future, 5.0, "the preempted run's result")
    assert status_name(first.status) == "ABORTED"
    assert first.result.error_code == ExecuteTree.Result.PREEMPTED
    assert second.result.error_code == ExecuteTree.Result.TREE_FAILED
    wait_until(lambda: "canceled" in events.names(), "the preempted tree's goal to be cancelled", 5.0)


def test_tree_status_topic_carries_node_status_changes(ros_node, start_server, start_executor, execute_tree):
    from robot_tasks_interfaces.msg import TreeStatus

    ready_server(ros_node, start_server, duration_s=0.1)
    start_executor()
    messages = []
    ros_node.node.create_subscription(TreeStatus, "tree_status", messages.append, 100)
    ros_node.wait_for_publisher("tree_status")
    # a throw-away run proves the executor's publisher has matched our subscription
    execute_tree("StaleTopic")
    ros_node.wait_for(lambda: messages and messages[-1].tree_id == "StaleTopic" and messages[-1].tick_count,
                      "the warm-up run's TreeStatus", 5.0)
    response, _, _ = execute_tree("MoveSequence", payload="{target: '0;0'}")
    assert response.result.node_status == "SUCCESS"
    ros_node.wait_for(lambda: any(m.tree_id == "MoveSequence" and m.root_status == "SUCCESS" for m in messages),
                      "the final TreeStatus", 5.0)
    # The warm-up run's last status may still arrive after it ended: keep this run's only.
    run = [m for m in list(messages) if m.tree_id == "MoveSequence"]
    first = run[0]
    assert first.tick_count == 0 and first.tree_id == "MoveSequence"
    assert [c.path for c in first.changes] == ["MoveSequence/moves", "MoveSequence/moves/first",
                                               "MoveSequence/moves/second"]
    transitions = [(c.path, c.previous_status, c.status) for m in run[1:] for c in m.changes]
    for leaf in ("first", "second"):
        path = f"MoveSequence/moves/{leaf}"
        assert (path, "IDLE", "RUNNING") in transitions
        assert (path, "RUNNING", "SUCCESS") in transitions
    assert all(c.registration_id == "MoveToJoints" for m in run for c in m.changes
               if c.path.endswith(("first", "second")))
    ticks = [m.tick_count for m in run]
    assert ticks == sorted(ticks)


def test_get_loaded_trees_lists_trees_and_broken_file_is_logged(ros_node, start_executor):
    from robot_tasks_interfaces.srv import GetLoadedTrees

    proc = start_executor()
    client = ros_node.node.create_client(GetLoadedTrees, "get_loaded_trees")
    ros_node.wait_for(client.service_is_ready, "get_loaded_trees")
    response = ros_node.wait_future(client.call_async(GetLoadedTrees.Request()), 5.0, "get_loaded_trees")
    trees = dict(zip(response.tree_ids, response.files))
    assert {"MoveSequence", "MissingServer", "RejectedGoal"} <= set(trees)
    assert "Broken" not in trees
    assert trees["MoveSequence"].endswith("test/support/trees/moves.xml")
    log = proc.log_path.read_text()
    assert "broken_unknown_node.xml:6: [NoSuchNode] unknown node type" in log


def test_ticks_follow_sim_time_under_use_sim_time(ros_node, start_server, start_executor, execute_tree):
    from builtin_interfaces.msg import Time
    from rosgraph_msgs.msg import Clock

    ready_server(ros_node, start_server, duration_s=0.05)
    start_executor(use_sim_time=True)
    result_future, _, _ = execute_tree("MoveSequence", payload="{target: '0;0'}", wait=False)
    time.sleep(1.0)  # no /clock yet: after the first tick (at goal start) the tick timer must not fire
    assert not result_future.done(), "the tree was ticked without /clock under use_sim_time"

    clock_pub = ros_node.node.create_publisher(Clock, "/clock", 10)
    sim_ns = [10**9]

    def advance():
        sim_ns[0] += 5_000_000  # 5 ms of sim time per 5 ms of wall time
        clock_pub.publish(Clock(clock=Time(sec=sim_ns[0] // 10**9, nanosec=sim_ns[0] % 10**9)))

    timer = ros_node.node.create_timer(0.005, advance)
    try:
        response = ros_node.wait_future(result_future, 10.0, "the run to finish once /clock advances")
    finally:
        timer.cancel()
    assert response.result.node_status == "SUCCESS", response.result.return_message


def _publish_clock_then_stop(ros_node, seconds: float = 0.5) -> None:
    """Publish /clock (sim time 10 s on) for `seconds` of wall time, then go silent, as a sim that died."""
    from builtin_interfaces.msg import Time
    from rosgraph_msgs.msg import Clock

    clock_pub = ros_node.node.create_publisher(Clock, "/clock", 10)
    ros_node.wait_for_subscriber("/clock")
    sim_ns = 10 * 10**9
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        sim_ns += 10_000_000
        clock_pub.publish(Clock(clock=Time(sec=sim_ns // 10**9, nanosec=sim_ns % 10**9)))
        time.sleep(0.01)


def test_a_stalled_clock_still_ends_the_tree(ros_node, start_executor, execute_tree):
    """The sim (the /clock source) died: the leaf's own wall-clock timeout still fails the tree
    (bench/faults.py sim_killed found the tree RUNNING forever, ticked only on /clock)."""
    from robot_tasks_interfaces.action import ExecuteTree

    start_executor(use_sim_time=True)
    _publish_clock_then_stop(ros_node)
    started = time.monotonic()
    response, _, _ = execute_tree("MissingServer", timeout=10.0)
    assert (response.result.node_status, response.result.error_code) == ("FAILURE", ExecuteTree.Result.TREE_FAILED)
    assert "SERVER_UNREACHABLE" in response.result.return_message
    assert time.monotonic() - started < 3.0


def test_cancel_is_served_without_any_clock(ros_node, start_executor, execute_tree):
    """Under use_sim_time with no /clock at all, a cancel still halts the tree at once."""
    from robot_tasks_interfaces.action import ExecuteTree

    start_executor(use_sim_time=True)
    result_future, _, handle = execute_tree("Sleepy", wait=False)
    time.sleep(0.5)
    cancelled = time.monotonic()
    ros_node.wait_future(handle.cancel_goal_async(), 5.0, "the cancel response")
    response = ros_node.wait_future(result_future, 5.0, "the result after the cancel")
    assert response.result.error_code == ExecuteTree.Result.CANCELLED, response.result.return_message
    assert time.monotonic() - cancelled < 2.0


def test_stopping_the_executor_cancels_the_inflight_goal(ros_node, start_server, start_executor, execute_tree):
    _, events = ready_server(ros_node, start_server, duration_s=30.0)
    executor = start_executor()
    execute_tree("MoveSequence", payload="{target: '0;0'}", wait=False)
    wait_until(lambda: "goal" in events.names(), "the server to receive the goal", 10.0)
    assert executor.stop().startswith("SIGINT rc=0")
    wait_until(lambda: "canceled" in events.names(), "the server to cancel the orphaned goal", 5.0)


def test_sigterm_also_halts_the_tree_cancels_the_goal_and_exits_0(ros_node, start_server, start_executor,
                                                                  execute_tree):
    _, events = ready_server(ros_node, start_server, duration_s=30.0)
    executor = start_executor()
    execute_tree("MoveSequence", payload="{target: '0;0'}", wait=False)
    wait_until(lambda: "goal" in events.names(), "the server to receive the goal", 10.0)
    os.killpg(executor.pid, signal.SIGTERM)      # what bringup / ros2 launch send
    assert executor.popen.wait(timeout=10.0) == 0
    wait_until(lambda: "canceled" in events.names(), "the server to cancel the orphaned goal", 5.0)


def test_trees_run_by_file_path_and_broken_targets_give_tree_load_error(ros_node, start_server, start_executor,
                                                                        execute_tree):
    from robot_tasks_interfaces.action import ExecuteTree

    _, events = ready_server(ros_node, start_server, duration_s=0.05)
    start_executor()
    response, _, _ = execute_tree("single_move.xml", payload="{q: [0.7]}")
    assert response.result.node_status == "SUCCESS", response.result.return_message
    assert [e["positions"] for e in events() if e["event"] == "goal"] == [[0.7]]
    # several trees and no main_tree_to_execute: the file cannot say which one to run
    response, _, _ = execute_tree("moves.xml")
    assert response.result.error_code == ExecuteTree.Result.TREE_LOAD_ERROR
    assert "moves.xml:" in response.result.return_message and "main_tree_to_execute" in \
        response.result.return_message
    # a payload that does not fit a port's type is caught when the tree runs, naming the node
    response, _, _ = execute_tree("SingleMove", payload="{q: 'a;b'}")
    assert response.result.node_status == "FAILURE"
    assert "INVALID_GOAL" in response.result.return_message and "SingleMove/only" in response.result.return_message


def test_late_goal_response_gives_send_goal_timeout_and_the_late_goal_is_cancelled(
        ros_node, start_server, start_executor, execute_tree):
    _, events = ready_server(ros_node, start_server, duration_s=30.0, goal_delay_s=1.0)
    start_executor()
    response, _, _ = execute_tree("SlowGoalResponse")
    assert response.result.node_status == "FAILURE"
    assert "SEND_GOAL_TIMEOUT" in response.result.return_message and "300 ms" in response.result.return_message
    # the server accepts it a little later; the leaf that gave up cancels it then
    wait_until(lambda: "canceled" in events.names(), "the late goal to be cancelled", 10.0)
