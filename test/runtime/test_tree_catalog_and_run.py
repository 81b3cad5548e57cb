"""TreeCatalog (loading, targets, payloads) and TreeRun (ticks, journal, paths): no DDS needed."""
from __future__ import annotations

import pytest

from robot_tasks.bt import BehaviorTreeFactory, NodeStatus
from robot_tasks.runtime.catalog import TreeCatalog, parse_payload
from robot_tasks.runtime.errors import InvalidPayloadError, NodeTickError, TreeLoadError, UnknownTreeError
from robot_tasks.runtime.run import TreeRun

GOOD = """<root BTCPP_format="4" main_tree_to_execute="Main">
  <BehaviorTree ID="Main">
    <Sequence name="seq">
      <Script code="seen := n + 1"/>
      <SubTree ID="Inner" name="inner" _autoremap="true"/>
    </Sequence>
  </BehaviorTree>
  <BehaviorTree ID="Inner">
    <Sleep msec="20"/>
  </BehaviorTree>
</root>"""
BROKEN = """<root BTCPP_format="4">
  <BehaviorTree ID="Bad">
    <Sequence>
      <Unknown/>
    </Sequence>
  </BehaviorTree>
</root>"""


@pytest.fixture
def catalog(tmp_path):
    (tmp_path / "good.xml").write_text(GOOD)
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "broken.xml").write_text(BROKEN)
    cat = TreeCatalog(BehaviorTreeFactory(), [tmp_path, tmp_path / "missing"])
    cat.load_all()
    return cat


def test_load_all_keeps_good_files_and_reports_broken_ones_with_file_and_line(catalog, tmp_path):
    assert catalog.tree_ids() == ["Inner", "Main"]
    assert catalog.files["Main"] == str(tmp_path / "good.xml")
    assert any(p.startswith(f"{tmp_path / 'sub' / 'broken.xml'}:4:") and "Unknown" in p for p in catalog.problems)
    assert any("missing: tree directory does not exist" in p for p in catalog.problems)


def test_targets_by_id_and_by_file(catalog, tmp_path):
    tree, tree_id = catalog.create("Main", {"n": 1})
    assert tree_id == "Main" and tree.root_blackboard.get("n") == 1
    tree, tree_id = catalog.create("good.xml")
    assert tree_id == "Main"
    with pytest.raises(UnknownTreeError, match="did you mean 'Main'"):
        catalog.create("Mian")
    with pytest.raises(UnknownTreeError, match="target_tree is empty"):
        catalog.create("  ")
    with pytest.raises(TreeLoadError, match=r"broken.xml:4:"):
        catalog.create("sub/broken.xml")


@pytest.mark.parametrize("text, expected", [("", {}), ("  ", {}), ("{a: 1, b: [1, 2]}", {"a": 1, "b": [1, 2]}),
                                            ('{"a": "x"}', {"a": "x"}), ("a: 1\nb: two", {"a": 1, "b": "two"})])
def test_payload_mappings(text, expected):
    assert parse_payload(text) == expected


@pytest.mark.parametrize("text, message", [("[1, 2]", "must be a YAML mapping"), ("42", "got a int"),
                                           ("{a: [", "not valid YAML at line 1"), ("{1: a}", "keys must be")])
def test_bad_payloads_say_why(text, message):
    with pytest.raises(InvalidPayloadError, match=message):
        parse_payload(text)


def test_run_records_changes_with_tree_paths_and_running_leaves(catalog):
    tree, tree_id = catalog.create("Main", {"n": 1})
    run = TreeRun(tree, tree_id)
    snapshot = run.snapshot()
    assert [c.path for c in snapshot] == ["Main/seq", "Main/seq/Script", "Main/seq/inner",
                                          "Main/seq/inner/Sleep"]
    assert all(c.previous == c.status == "IDLE" for c in snapshot)
    assert run.tick() is NodeStatus.RUNNING
    assert run.running_leaves() == ["Main/seq/inner/Sleep"]
    assert "running: Main/seq/inner/Sleep" in run.feedback_text()
    changes = run.take_changes()
    assert ("Main/seq/Script", "IDLE", "SUCCESS") in [(c.path, c.previous, c.status) for c in changes]
    assert run.take_changes() == []
    run.halt()
    assert ("Main/seq/inner/Sleep", "RUNNING", "IDLE") in [(c.path, c.previous, c.status)
                                                           for c in run.take_changes()]
    run.close()
    assert tree.root_blackboard.get("seen") == 2


def test_siblings_of_one_name_are_numbered_as_a_recording_names_them():
    """tree_status and a recording name a node alike, so a status log line and a recorded
    node can be matched by path, also where two siblings share a name."""
    from robot_tasks.bt.recording.paths import node_paths

    tree = BehaviorTreeFactory().create_tree_from_text(
        '<root BTCPP_format="4"><BehaviorTree ID="T"><Sequence name="s">'
        '<AlwaysSuccess/><AlwaysSuccess/><AlwaysSuccess name="third"/></Sequence></BehaviorTree></root>')
    run = TreeRun(tree, "T")
    assert [c.path for c in run.snapshot()] == ["T/s", "T/s/AlwaysSuccess", "T/s/AlwaysSuccess#2", "T/s/third"]
    assert run.paths == node_paths(tree)


def test_a_raising_node_halts_the_tree_and_names_the_error():
    factory = BehaviorTreeFactory()

    def boom(node):
        raise RuntimeError("sensor on fire")

    factory.register_simple_action("Boom", boom)
    tree = factory.create_tree_from_text('<root BTCPP_format="4"><BehaviorTree ID="T"><Boom/></BehaviorTree></root>')
    run = TreeRun(tree, "T")
    with pytest.raises(NodeTickError, match="RuntimeError: sensor on fire"):
        run.tick()
