"""Groot2 watches the tree_executor's running tree: one publisher per run (groot2_port), closed
with the run; two executors on two ports are both watchable; a .btlog of every run (btlog_dir).

The client is the test's own pyzmq Groot2 client (test/support/groot2_client.py), on 127.0.0.1.
"""
from __future__ import annotations

import socket
import struct

import pytest
from groot2_client import Groot2Client, free_port_pair

from robot_tasks.bt.loggers import read_btlog
from robot_tasks.testing.ros_test_node import wait_until

pytestmark = [pytest.mark.ros, pytest.mark.timeout(120)]

IDLE, RUNNING = 0, 1   # Groot2's status bytes (NodeStatus numbering)


def send_goal(ros_node, action_clients, action_name: str, target: str):
    from robot_tasks_interfaces.action import ExecuteTree

    client = action_clients.create(ExecuteTree, action_name)
    ros_node.wait_for_action_server(ExecuteTree, action_name, client=client)
    handle = ros_node.wait_future(client.send_goal_async(ExecuteTree.Goal(target_tree=target)), 5.0,
                                  f"{action_name} goal response")
    assert handle.accepted
    return handle.get_result_async()


def watch(port: int) -> tuple[str, list[tuple[int, int]]]:
    """What Groot2 sees of the running tree: its XML and (uid, status) of every node."""
    client = Groot2Client(port)
    try:
        client.wait_connected(timeout_s=5.0)
        tree_xml = client.request("T").payload[0].decode()
        status = client.request("S").payload[0]
        return tree_xml, [struct.unpack("<HB", status[i:i + 3]) for i in range(0, len(status), 3)]
    finally:
        client.close()


def port_is_free(port: int) -> bool:
    with socket.socket() as probe:
        try:
            probe.bind(("127.0.0.1", port))
            return True
        except OSError:
            return False


def test_two_executors_are_watched_on_their_own_ports_while_their_trees_run(
        ros_node, action_clients, start_executor, launcher, tmp_path):
    port_a = free_port_pair()
    port_b = free_port_pair()
    assert port_b not in (port_a, port_a + 1) and port_a not in (port_b, port_b + 1)
    start_executor(name="watched_a", groot2_port=port_a, btlog_dir=str(tmp_path / "btlogs"))
    start_executor(name="watched_b", groot2_port=port_b, action_name="execute_tree_b")

    results = [send_goal(ros_node, action_clients, "execute_tree", "Sleepy"),
               send_goal(ros_node, action_clients, "execute_tree_b", "Sleepy")]
    for port in (port_a, port_b):
        tree_xml, statuses = watch(port)
        assert '<BehaviorTree ID="Sleepy"' in tree_xml and "_uid=" in tree_xml and "_fullpath" in tree_xml
        assert 'name="nap"' in tree_xml and "<TreeNodesModel" in tree_xml
        assert statuses == [(1, RUNNING), (2, RUNNING), (3, IDLE)], statuses  # Sequence and Sleep run

    for future in results:
        response = ros_node.wait_future(future, 15.0, "Sleepy result")
        assert response.result.node_status == "SUCCESS", response.result.return_message
    # the publisher closed with its run: the ports are free for the next one
    wait_until(lambda: port_is_free(port_a) and port_is_free(port_a + 1), "Groot2 ports released", 5.0)

    logs = list((tmp_path / "btlogs").glob("Sleepy_*.btlog"))
    assert len(logs) == 1, logs
    tree_xml, _start, transitions = read_btlog(logs[0])
    assert 'ID="Sleepy"' in tree_xml and transitions, "a .btlog Groot2 can replay"
    assert any(status == RUNNING for _, _, status in transitions)


def test_a_taken_port_turns_monitoring_off_for_that_run_and_the_tree_still_runs(
        ros_node, action_clients, start_executor, tmp_path):
    port = free_port_pair()
    with socket.socket() as squatter:               # another program holds the port
        squatter.bind(("127.0.0.1", port))
        squatter.listen(1)
        proc = start_executor(name="crowded", groot2_port=port)
        response = ros_node.wait_future(send_goal(ros_node, action_clients, "execute_tree", "Sleepy"),
                                        15.0, "Sleepy result")
    assert response.result.node_status == "SUCCESS", response.result.return_message
    assert "Groot2 monitoring of 'Sleepy' is off for this run" in proc.log_path.read_text()
