"""TreeRecorder and the recording file, on a small tree with no ROS (test/bt/recording_cases.py)."""
from __future__ import annotations

import json

import pytest
from recording_cases import TREE, make_factory, record_run

from robot_tasks.bt import BehaviorTreeFactory, NodeStatus
from robot_tasks.bt.recording import RecordingError, TreeRecorder, read_recording
from robot_tasks.bt.recording.header import file_sha256


@pytest.fixture
def recording(tmp_path):
    path, status = record_run(tmp_path)
    assert status is NodeStatus.SUCCESS
    return read_recording(path)


def leaf_events(recording, path_end):
    return [e for e in recording.events if e.get("leaf", "").endswith(path_end)]


def test_the_header_names_the_tree_its_hash_payload_blackboard_and_leaf_types(recording, tmp_path):
    header = recording.header
    assert header["tree_id"] == "Main" and header["target"] == "Main"
    assert header["tree_file"] == str((tmp_path / "tree.xml").resolve())
    assert header["files"] == {header["tree_file"]: file_sha256(tmp_path / "tree.xml")}
    assert header["payload"] == {"operator": "test"} and header["blackboard"] == {"operator": "test"}
    assert header["leaf_types"]["Move"] == {"kind": "Action", "ports": [
        {"name": "target", "direction": "input", "type": None},
        {"name": "ticks", "direction": "input", "type": "int", "default": 3}]}
    assert header["leaves"]["Main/main/guarded/retry/try/move"] == {
        "type": "Move", "ports": {"target": "{objects}", "ticks": "3"}}
    assert recording.complete and recording.events[-1]["ticks"] == recording.ticks == 9


def test_a_running_leaf_is_written_when_its_result_changes_not_every_tick(recording):
    moves = leaf_events(recording, "try/move")
    assert [(e["call"], e["returned"]) for e in moves] == [(1, "RUNNING"), (4, "FAILURE"), (5, "RUNNING"),
                                                           (8, "SUCCESS")]


def test_leaf_writes_carry_the_entry_the_port_and_the_value(recording):
    detect = leaf_events(recording, "main/detect")[0]
    assert detect["returned"] == "SUCCESS"
    count, objects = detect["writes"]
    assert count == {"entry": "count", "port": "count", "value": 2}
    assert objects["entry"] == "objects" and objects["value"][0]["class"] == "recording_cases:Seen"
    assert objects["value"][0]["state"]["position"]["items"][2] == {"__type": "float", "value": "nan"}


def test_the_same_value_written_again_is_marked_same(recording):
    watches = leaf_events(recording, "guarded/watch")
    assert watches[0]["writes"] == [{"entry": "seen", "port": "seen", "value": "all clear"}]
    assert all(e["writes"] == [{"entry": "seen", "port": "seen", "same": True}] for e in watches[1:])
    assert len(watches) == 7   # ticked every tick by the ReactiveSequence: written every tick


def test_scripts_leaves_and_tree_writes_and_subtree_private_entries(recording):
    assert [e["writes"] for e in leaf_events(recording, "count_attempt")] == [
        [{"entry": "attempts", "value": 1}], [{"entry": "attempts", "value": 2}]]
    assert leaf_events(recording, "remember")[0]["writes"] == [{"entry": "Main/main/place_it:_try", "value": 2}]
    tree_writes = [e for e in recording.events if "write" in e]
    assert tree_writes == [{"write": "placed", "value": 1.0}]   # the _post script of `lower`
    lower_done = recording.events.index(leaf_events(recording, "place/lower")[-1])
    assert recording.events[lower_done + 1] == {"write": "placed", "value": 1.0}


def test_every_status_change_is_recorded_in_order(recording):
    changes = [(e["node"], e["was"], e["status"]) for e in recording.events if "node" in e]
    assert changes[0] == ("Main/main", "IDLE", "RUNNING")
    assert changes[-2:] == [("Main/main", "RUNNING", "SUCCESS"), ("Main/main", "SUCCESS", "IDLE")]
    assert ("Main/main/guarded/retry/try/move", "RUNNING", "FAILURE") in changes


def test_a_leaf_s_own_status_changes_inside_its_call_are_the_call_s(tmp_path):
    factory = BehaviorTreeFactory()   # SimpleActionNode shows itself RUNNING inside its tick
    factory.register_simple_action("Say", lambda node: NodeStatus.SUCCESS)
    tree = factory.create_tree_from_text('<root BTCPP_format="4"><BehaviorTree ID="M">'
                                         '<Sequence name="s"><Say name="say"/></Sequence></BehaviorTree></root>')
    events = []
    recorder = TreeRecorder(tree, events.append)
    recorder.begin_tick(1)
    tree.tick_exactly_once()
    recorder.close()
    say = [e for e in events if e.get("node") == "M/s/say" or e.get("leaf") == "M/s/say"]
    assert say == [{"leaf": "M/s/say", "call": 1, "returned": "SUCCESS", "set": "RUNNING"},
                   {"node": "M/s/say", "was": "RUNNING", "status": "SUCCESS"},
                   {"node": "M/s/say", "was": "SUCCESS", "status": "IDLE"}]


def test_halts_raised_errors_and_the_executor_halting_the_tree(tmp_path):
    factory = make_factory()
    factory.register_simple_action("Boom", lambda node: (_ for _ in ()).throw(RuntimeError("sensor gone")))
    tree = factory.create_tree_from_text(
        '<root BTCPP_format="4"><BehaviorTree ID="M"><Parallel name="p" success_count="2" failure_count="1">'
        '<Move name="move" target="x" ticks="9"/><Boom name="boom"/></Parallel></BehaviorTree></root>')
    events = []
    recorder = TreeRecorder(tree, events.append)
    recorder.begin_tick(1)
    with pytest.raises(RuntimeError, match="sensor gone"):
        tree.tick_exactly_once()
    tree.halt_tree()
    recorder.close()
    assert {"leaf": "M/p/boom", "call": 1, "raised": "RuntimeError: sensor gone", "set": "RUNNING"} in events
    halt = events.index({"halt_tree": True})
    assert {"leaf": "M/p/move", "call": 2, "halted": "IDLE"} in events[halt:]
    assert {"node": "M/p/move", "was": "RUNNING", "status": "IDLE"} not in events   # part of the halt call


def test_detach_gives_the_tree_its_lean_tick_path_back(tmp_path):
    tree = make_factory().create_tree_from_file(_tree_file(tmp_path))
    script = next(n for n in tree.nodes if n.name == "init")
    before = dict(script.__dict__)
    recorder = TreeRecorder(tree, lambda event: None)
    assert "tick" in script.__dict__ and "execute_tick" in script.__dict__
    recorder.close()
    assert "tick" not in script.__dict__ and "execute_tick" not in script.__dict__
    assert "halt_tree" not in tree.__dict__
    assert set(script.__dict__) <= set(before) | {"_status_observers"}


def _tree_file(folder):
    path = folder / "tree.xml"
    path.write_text(TREE)
    return path


def test_a_broken_sink_stops_the_recording_not_the_run(tmp_path):
    tree = make_factory().create_tree_from_file(_tree_file(tmp_path))
    problems = []

    def sink(event):
        raise OSError("disk full")
    recorder = TreeRecorder(tree, sink, on_problem=problems.append)
    for tick in range(1, 4):
        recorder.begin_tick(tick)
        tree.tick_exactly_once()
    recorder.close()
    assert problems == ["recording stopped at tick 1: OSError: disk full"]


def test_a_timeout_that_fires_is_recorded_where_it_fired(tmp_path):
    tree = make_factory().create_tree_from_text(
        '<root BTCPP_format="4"><BehaviorTree ID="M"><Timeout name="limit" msec="30">'
        '<Move name="move" target="x" ticks="1000"/></Timeout></BehaviorTree></root>')
    events = []
    recorder = TreeRecorder(tree, events.append)
    status, tick = NodeStatus.RUNNING, 0
    while status is NodeStatus.RUNNING and tick < 200:
        tick += 1
        recorder.begin_tick(tick)
        status = tree.tick_exactly_once()
        tree.sleep(0.005)
    recorder.close()
    assert status is NodeStatus.FAILURE
    fired = next(i for i, event in enumerate(events) if event.get("timer") == "M/limit")
    assert events[fired]["calls"] > 2
    halted = events[fired + 1]
    assert halted["leaf"] == "M/limit/move" and halted["halted"] == "IDLE" and halted["call"] > 2


def test_read_recording_names_the_file_and_line_of_a_problem(tmp_path, recording):
    bad = tmp_path / "bad.replay.jsonl"
    lines = recording.path.read_text().splitlines()
    bad.write_text("\n".join(lines[:3] + ["{not json"] + lines[3:]))
    with pytest.raises(RecordingError, match=rf"{bad}:4: not a JSON line"):
        read_recording(bad)
    bad.write_text(json.dumps({"hello": 1}) + "\n")
    with pytest.raises(RecordingError, match="not a tree recording"):
        read_recording(bad)
    with pytest.raises(RecordingError, match="can't read"):
        read_recording(tmp_path / "missing.replay.jsonl")
    cut = tmp_path / "cut.replay.jsonl"
    cut.write_text("\n".join(lines[:20]) + "\n" + lines[20][:10])   # a run that stopped mid-line
    assert not read_recording(cut).complete and len(read_recording(cut).events) == 19
