"""tree_executor's record_dir: every run recorded next to its .btlog, and the recording replays exactly.

Processes: the test MoveToJoints server, the tree_executor, an in-test ExecuteTree client
(all over loopback DDS on the session's own domain, as every ROS test here).
"""
from __future__ import annotations

import pytest

from robot_tasks.bt.recording import Replayer, read_recording
from robot_tasks.testing.ros_test_node import wait_until

pytestmark = [pytest.mark.ros, pytest.mark.timeout(90)]


@pytest.fixture
def execute(ros_node, action_clients):
    from robot_tasks_interfaces.action import ExecuteTree

    client = action_clients.create(ExecuteTree, "execute_tree")

    def send(target: str, payload: str = ""):
        ros_node.wait_for_action_server(ExecuteTree, "execute_tree", client=client)
        handle = ros_node.wait_future(client.send_goal_async(ExecuteTree.Goal(target_tree=target, payload=payload)),
                                      5.0, "ExecuteTree goal response")
        return handle, handle.get_result_async()
    return send


def recording_ended(folder) -> bool:
    """The executor closes a run's recording after the goal's result: wait for its end line."""
    return any('"end":true' in path.read_text() for path in folder.glob("*.replay.jsonl"))


def recording_in(folder, tree_id: str):
    files = sorted(folder.glob(f"{tree_id}_*.replay.jsonl"))
    assert len(files) == 1, f"one recording expected in {folder}: {[f.name for f in folder.iterdir()]}"
    return read_recording(files[0])


def test_a_run_is_recorded_and_replays_exactly(ros_node, start_server, start_executor, execute, tmp_path):
    from robot_tasks_interfaces.action import MoveToJoints

    start_server(duration_s=0.2)
    ros_node.wait_for_action_server(MoveToJoints, "move_to_joints")
    start_executor(record_dir=str(tmp_path), btlog_dir=str(tmp_path))
    _, result = execute("MoveSequence", payload="{target: [0.3, 0.4]}")
    response = ros_node.wait_future(result, 15.0, "the recorded run's result")
    assert response.result.node_status == "SUCCESS", response.result.return_message
    wait_until(lambda: recording_ended(tmp_path), "the recording's end line", 5.0)
    recording = recording_in(tmp_path, "MoveSequence")
    header = recording.header
    assert header["target"] == "MoveSequence" and header["payload"] == {"target": [0.3, 0.4]}
    assert header["tree_file"].endswith("moves.xml") and "ROS clock" in header["clock"]
    assert header["leaf_types"]["MoveToJoints"]["kind"] == "Action"
    assert recording.ticks == response.result.tick_count
    assert len(list(tmp_path.glob("MoveSequence_*.btlog"))) == 1
    second = [e for e in recording.events if e.get("leaf") == "MoveSequence/moves/second"]
    assert [e["returned"] for e in second] == ["RUNNING", "SUCCESS"]
    result = Replayer(recording).run()
    assert result.outcome == "exact" and result.root_status == "SUCCESS", result.divergence


def test_a_cancelled_run_records_the_halt_and_replays_it(ros_node, start_server, start_executor, execute,
                                                         tmp_path):
    from robot_tasks_interfaces.action import MoveToJoints

    _, events = start_server(duration_s=30.0)
    ros_node.wait_for_action_server(MoveToJoints, "move_to_joints")
    start_executor(record_dir=str(tmp_path))
    handle, result = execute("MoveSequence", payload="{target: '0;0'}")
    wait_until(lambda: "goal" in events.names(), "the server to receive the first goal", 10.0)
    ros_node.wait_future(handle.cancel_goal_async(), 5.0, "cancel response")
    ros_node.wait_future(result, 5.0, "the cancelled run's result")
    wait_until(lambda: recording_ended(tmp_path), "the recording's end line", 5.0)
    recording = recording_in(tmp_path, "MoveSequence")
    assert {"halt_tree": True} in recording.events
    halt = recording.events.index({"halt_tree": True})
    assert any(e.get("leaf") == "MoveSequence/moves/first" and e.get("halted") == "IDLE"
               for e in recording.events[halt:])
    assert Replayer(recording).run().outcome == "exact"
