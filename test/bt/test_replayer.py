"""Replayer: a recorded run replays exactly; an edited tree stops at its first divergence (no ROS)."""
from __future__ import annotations

import pytest
from recording_cases import TREE, Seen, make_factory, record_run

from robot_tasks.bt import BehaviorTreeFactory, NodeStatus
from robot_tasks.bt.recording import RecordingError, Replayer, TreeRecorder, read_recording
from robot_tasks.bt.recording.file import RecordingWriter
from robot_tasks.bt.recording.header import make_header
from robot_tasks.bt.recording.run import initial_blackboard


@pytest.fixture
def recording(tmp_path):
    path, status = record_run(tmp_path)
    assert status is NodeStatus.SUCCESS
    return read_recording(path)


def edited(tmp_path, old: str, new: str):
    assert old in TREE
    path = tmp_path / "edited.xml"
    path.write_text(TREE.replace(old, new, 1))
    return path


def test_the_recorded_tree_replays_exactly_without_the_leaves_code(recording):
    replay = Replayer(recording)   # the factory knows no Detect/Move/Watch: they come from the header
    assert sorted(p.rsplit("/", 1)[1] for p in replay.replayed_leaves) == ["detect", "lower", "move", "watch"]
    assert sorted(p.rsplit("/", 1)[1] for p in replay.real_leaves) == ["count_attempt", "init", "placed_ok",
                                                                       "remember"]
    result = replay.run()
    assert (result.outcome, result.ticks, result.root_status) == ("exact", 9, "SUCCESS")
    assert result.events == len(recording.events) and result.divergence is None
    board = replay.blackboard()
    assert board["attempts"] == 2 and board["placed"] == 1.0 and board["Main/main/place_it:_try"] == 2
    objects = replay.tree.root_blackboard.get("objects")
    assert type(objects[0]) is Seen and objects[1] == Seen("blue", (0.3, 0.4, 0.5))


def test_stop_after_a_tick_shows_the_blackboard_then(recording):
    replay = Replayer(recording)
    result = replay.run(stop_at_tick=3)
    assert (result.outcome, result.ticks, result.stopped_at) == ("stopped", 3, "after tick 3")
    assert replay.blackboard()["attempts"] == 1 and "placed" not in replay.blackboard()
    assert Replayer(recording).run(stop_at_tick=4).ticks == 4


def test_stop_at_a_node_by_name_or_path_end(recording):
    replay = Replayer(recording)
    assert replay.find_node("lower") == ["Main/main/place_it/place/lower"]
    assert replay.find_node("place/lower") == replay.find_node("Main/main/place_it/place/lower")
    assert replay.find_node("Lower") == []
    result = replay.run(stop_at_node="Main/main/place_it/place/lower")
    assert result.outcome == "stopped" and result.ticks == 7
    assert result.stopped_at.startswith("leaf Main/main/place_it/place/lower returned RUNNING")
    assert replay.blackboard()["Main/main/place_it:_try"] == 2


def test_stop_at_a_node_from_a_tick_on(recording):
    replay = Replayer(recording)
    result = replay.run(stop_at_tick=5, stop_at_node="Main/main/guarded/retry/try/move")
    assert result.ticks == 7 and "returned SUCCESS" in result.stopped_at


def test_an_edited_script_diverges_where_its_write_differs(recording, tmp_path):
    result = Replayer(recording, edited(tmp_path, "attempts += 1", "attempts += 2")).run()
    divergence = result.divergence
    assert result.outcome == "diverged" and divergence.tick == 1
    assert divergence.node == "Main/main/guarded/retry/try/count_attempt"
    assert divergence.reason == "the run wrote attempts = 1; the replay wrote attempts = 2"
    assert "diverged at tick 1 (t = 0.020 s)" in str(divergence)


def test_an_edited_retry_count_diverges_where_the_flow_changes(recording, tmp_path):
    result = Replayer(recording, edited(tmp_path, 'num_attempts="5"', 'num_attempts="1"')).run()
    divergence = result.divergence
    assert divergence.tick == 4 and divergence.expected == {
        "node": "Main/main/guarded/retry/try", "was": "IDLE", "status": "RUNNING"}
    assert divergence.got == {"node": "Main/main/guarded/retry", "was": "RUNNING", "status": "FAILURE"}
    assert "the run went on with" in divergence.reason


def test_a_replayed_leaf_given_other_ports_cannot_repeat_its_recording(recording, tmp_path):
    result = Replayer(recording, edited(tmp_path, 'ticks="3"', 'ticks="4"')).run()
    assert result.outcome == "diverged" and result.divergence.tick == 1
    assert result.divergence.node == "Main/main/guarded/retry/try/move"
    assert "ticks: '3' in the run, '4' here" in result.divergence.reason


def test_a_leaf_that_never_ran_stops_the_replay(recording, tmp_path):
    tree = edited(tmp_path, '<Script name="init" code="attempts := 0"/>',
                  '<Script name="init" code="attempts := 0"/><Beep name="beep"/>')
    result = Replayer(recording, tree).run()
    assert result.divergence.node == "Main/main/beep"
    assert "never ran in the recorded run" in result.divergence.reason


def test_a_truncated_recording_replays_what_it_holds(recording, tmp_path):
    lines = recording.path.read_text().splitlines()
    cut = tmp_path / "cut.replay.jsonl"
    cut.write_text("\n".join(lines[:30]) + "\n")
    result = Replayer(read_recording(cut)).run()
    assert result.outcome == "exact" and not result.complete


def test_a_missing_tree_file_is_an_error_naming_it(recording, tmp_path):
    with pytest.raises(RecordingError, match="nowhere.xml: the tree file to replay does not exist"):
        Replayer(recording, tmp_path / "nowhere.xml")


def record_text(tmp_path, factory, text, ticks=200, sleep=0.0):
    """Record a tree from XML text until it ends; return the recording read back."""
    tree_file = tmp_path / "t.xml"
    tree_file.write_text(text)
    tree = factory.create_tree_from_file(tree_file)
    writer = RecordingWriter(tmp_path / "t.replay.jsonl", make_header(tree, initial_blackboard(tree),
                                                                      tree_file=tree_file))
    recorder = TreeRecorder(tree, writer)
    status, tick = NodeStatus.RUNNING, 0
    while status is NodeStatus.RUNNING and tick < ticks:
        tick += 1
        recorder.begin_tick(tick)
        try:
            status = tree.tick_exactly_once()
        except Exception:  # noqa: BLE001 - as the executor: a raising tick ends the run, halted
            tree.halt_tree()
            break
        if sleep:
            tree.sleep(sleep)
    recorder.close()
    writer.close()
    return read_recording(writer.path)


def test_a_timeout_fires_in_the_replay_where_it_fired_in_the_run(tmp_path):
    recording = record_text(tmp_path, make_factory(), '<root BTCPP_format="4"><BehaviorTree ID="M">'
                            '<Fallback><Timeout name="limit" msec="30"><Move name="m" target="x" ticks="1000"/>'
                            '</Timeout><Move name="other" target="x" ticks="2"/></Fallback></BehaviorTree></root>',
                            sleep=0.005)
    assert any("timer" in e for e in recording.events)
    result = Replayer(recording).run()
    assert result.outcome == "exact" and result.ticks == recording.ticks


def test_a_leaf_that_raised_and_a_simple_action_replay_exactly(tmp_path):
    factory = make_factory()
    factory.register_simple_action("Say", lambda node: NodeStatus.SUCCESS)
    calls = []

    def flaky(node):
        calls.append(1)
        if len(calls) == 3:
            raise RuntimeError("camera unplugged")
        return NodeStatus.FAILURE
    factory.register_simple_action("Flaky", flaky)
    recording = record_text(tmp_path, factory, '<root BTCPP_format="4"><BehaviorTree ID="M">'
                            '<Sequence><Say name="say"/><RetryUntilSuccessful num_attempts="9">'
                            '<Sequence><Move name="m" target="x" ticks="1"/><Flaky name="flaky"/></Sequence>'
                            '</RetryUntilSuccessful></Sequence></BehaviorTree></root>')
    assert any(e.get("raised") == "RuntimeError: camera unplugged" for e in recording.events)
    result = Replayer(recording).run()
    assert result.outcome == "exact", result.divergence


def test_port_types_the_replay_cannot_rebuild_are_noted(recording):
    recording.header["leaf_types"]["Move"]["ports"][1]["type"] = "no_such_module:Thing"
    replay = Replayer(recording)
    assert any("Move.ticks" in note and "no_such_module" in note for note in replay.factory.notes)


def test_a_plain_factory_is_not_touched_by_replays(recording):
    Replayer(recording).run()
    assert "Move" not in BehaviorTreeFactory().builders
