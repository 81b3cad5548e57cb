"""Scripts compiled for a node's blackboard (`scripting/bound.py`) mean what the protocol
path means.

Nodes tick scripts through closures bound to their blackboard; `parse_script(...)
.evaluate(board)` (what the script-language tests exercise) goes through get/has_entry/
set. These tests hold the two together:
- the random scripts of test_script_oracle, run by our Script and ScriptCondition
  nodes, against BT.CPP's own nodes (behaviortreepy, BT.CPP 4.8.2);
- both paths on the same engine blackboards, where the fast path has its fallbacks:
  remapped, autoremapped and `@root` keys, typed and empty entries, enums, errors;
- script writes bump `sequence_id` like `set()`, so WasEntryUpdated sees them.
"""
import random
from xml.sax.saxutils import escape

import behaviortreepy
import pytest
from test_script_oracle import SEED, SETUP, ScriptMaker, our_signature, run_btcpp, run_btcpp_condition, same_signature

from robot_tasks.bt import BehaviorTreeFactory, Blackboard, NodeStatus, XmlError
from robot_tasks.bt.errors import BehaviorTreeError, ScriptError
from robot_tasks.bt.scripting import parse_script

CASES = 1500


def run_ours_tree(factory, code):
    xml = (f'<root BTCPP_format="4"><BehaviorTree ID="Main">'
           f'<Script code="{escape(code)}"/></BehaviorTree></root>')
    try:
        tree = factory.create_tree_from_text(xml)
        tree.tick_once()
    except (ScriptError, XmlError):
        return "error"
    return {key: our_signature(value) for key, value in tree.root_blackboard.items()}


def test_script_nodes_match_btcpp_on_random_scripts():
    rng = random.Random(SEED + 7)
    maker = ScriptMaker(rng)
    ours_factory = BehaviorTreeFactory()
    theirs_factory = behaviortreepy.BehaviorTreeFactory()
    mismatches = []
    for _ in range(CASES):
        code = maker.script()
        ours = run_ours_tree(ours_factory, code)
        theirs = run_btcpp(theirs_factory, code)
        if not same_signature(ours, theirs):
            mismatches.append(f"{code!r}\n    ours:  {ours}\n    btcpp: {theirs}")
    assert not mismatches, f"{len(mismatches)} of {CASES} differ:\n" + "\n".join(mismatches[:10])


def test_script_condition_nodes_match_btcpp_on_random_conditions():
    rng = random.Random(SEED + 8)
    maker = ScriptMaker(rng)
    ours_factory = BehaviorTreeFactory()
    theirs_factory = behaviortreepy.BehaviorTreeFactory()
    mismatches = []
    for _ in range(CASES // 2):
        code = SETUP + maker.expr(0)[0]
        xml = (f'<root BTCPP_format="4"><BehaviorTree ID="Main">'
               f'<ScriptCondition code="{escape(code)}"/></BehaviorTree></root>')
        try:
            ours = ours_factory.create_tree_from_text(xml).tick_once().name
        except (ScriptError, XmlError):
            ours = "error"
        theirs = run_btcpp_condition(theirs_factory, code)
        if ours != theirs:
            mismatches.append(f"{code!r}: ours {ours}, btcpp {theirs}")
    assert not mismatches, "\n".join(mismatches[:10])


# ---- both paths on the same engine blackboards ------------------------------------------------
def boards():
    """(root, child) with the situations the fast path must fall back on."""
    root = Blackboard()
    root.set("r", 5)
    root.set("text", "abc")
    root.create_entry("typed", int)
    root.set("typed", 3)
    root.create_entry("empty", float)
    root.set("parent_only", 2.5)
    child = Blackboard(parent=root, autoremap=True)
    child.remap("alias", "r")
    child.set("_private", 1)
    child.set("local", 7.0)
    child.set("big", 2 ** 60)
    return root, child


SCRIPTS = [
    "local + 1", "alias * 2", "parent_only < local", "@r == 5", "@text .. 'd'", "typed += 2",
    "typed = 4.0", "typed = 4.5", "typed := '9'", "empty", "empty + 1", "missing", "missing = 1",
    "fresh := local; fresh", "alias := alias + 1; alias", "_private < 2", "parent_only += 1; parent_only",
    "@fresh_root := 1; @fresh_root", "text == 'abc'", "text < 'abd'", "big + 1", "big == big",
    "local < RED", "RED == 1", "r > 4 && local < 8", "local = 'x'", "text = 3", "local /= 2",
    "typed /= 2", "x := (y := 2) + y", "local == local", "0.1 + 0.2 == 0.3", "alias > 4.5 ? 1 : 2",
    "new += 1", "empty := 2; empty", "local := 1e400 - 1e400; local != local",
]


def snapshot(root, child):
    def entries(board):
        return {key: (repr(entry.value), type(entry.value).__name__, entry.sequence_id)
                for key, entry in sorted(board._storage.items())}
    return entries(root), entries(child)


def outcome(run):
    try:
        return ("ok", repr(run()))
    except BehaviorTreeError as exc:
        return ("error", str(exc))


@pytest.mark.parametrize("source", SCRIPTS)
def test_bound_and_protocol_paths_agree(source):
    enums = {"RED": 1}
    program = parse_script(source)
    root_a, child_a = boards()
    root_b, child_b = boards()
    bound = program.bind(child_b)
    assert outcome(lambda: program.evaluate(child_a, enums)) == outcome(lambda: bound.run(child_b, enums))
    assert snapshot(root_a, child_a) == snapshot(root_b, child_b)
    root_a, child_a = boards()
    root_b, child_b = boards()
    bound = program.bind(child_b)
    assert outcome(lambda: program.evaluate_truthy(child_a, enums)) == \
        outcome(lambda: bound.test(child_b, enums))
    assert snapshot(root_a, child_a) == snapshot(root_b, child_b)


def test_a_blackboard_subclass_keeps_the_protocol_path():
    class LoggingBoard(Blackboard):
        def __init__(self):
            super().__init__()
            self.writes = []

        def set(self, key, value):
            self.writes.append((key, value))
            super().set(key, value)

    board = LoggingBoard()
    parse_script("a := 1; a += 1").bind(board).run(board, {})
    assert board.writes == [("a", 1), ("a", 2)]


def test_script_writes_are_seen_by_was_entry_updated():
    xml = ('<root BTCPP_format="4"><BehaviorTree ID="Main"><Sequence>'
           '<Script code="n := 0"/><Script code="n += 1"/><WasEntryUpdated entry="n"/>'
           '</Sequence></BehaviorTree></root>')
    tree = BehaviorTreeFactory().create_tree_from_text(xml)
    assert tree.tick_once() is NodeStatus.SUCCESS
    assert tree.root_blackboard.get_entry("n").sequence_id == 2
