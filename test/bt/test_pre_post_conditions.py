"""Pre/post-condition attributes, as BT.CPP 4.10's tree_node.cpp runs them."""
import pytest
from bt_helpers import F, I, K, R, S, build

from robot_tasks.bt import XmlError


def value(tree, key):
    return tree.root_blackboard.get(key)


def test_skip_if_true_skips_without_ticking_and_keeps_idle():
    tree, book = build('<Sequence><Script code="x := 1"/><Leaf name="A" _skipIf="x == 1"/></Sequence>')
    statuses = []
    tree.subscribe_status_changes(lambda node, old, new: statuses.append((node.name, new)))
    assert tree.tick_once() is S  # one child succeeded, one skipped
    assert book.ticks["A"] == 0
    assert ("A", K) not in statuses and ("A", S) not in statuses  # SKIPPED is never stored


def test_all_children_skipped_makes_parent_skipped():
    tree, book = build('<Sequence><Leaf name="A" _skipIf="true"/><Leaf name="B" _skipIf="true"/></Sequence>')
    assert tree.tick_once() is K
    assert not book.ticks


def test_failure_if_and_success_if_fire_post_conditions():
    tree, book = build('<Sequence><Script code="n := 0; f := 0; p := 0"/>'
                       '<ForceSuccess><Leaf name="A" _failureIf="true" _successIf="true" '
                       '_onFailure="f := 1" _onSuccess="n := 1" _post="p := p + 1"/></ForceSuccess>'
                       '<Leaf name="B" _successIf="true" _onSuccess="n := 2" _post="p := p + 1"/></Sequence>')
    assert tree.tick_once() is S
    assert not book.ticks  # neither leaf was ticked
    assert (value(tree, "f"), value(tree, "n"), value(tree, "p")) == (1, 2, 2)


def test_pre_conditions_are_not_rechecked_while_running():
    tree, book = build('<Sequence><Leaf name="A" _skipIf="stop" _failureIf="stop"/></Sequence>')
    tree.root_blackboard.set("stop", False)
    book.set(A="RRS")
    assert tree.tick_once() is R
    tree.root_blackboard.set("stop", True)
    assert tree.tick_once() is R
    assert tree.tick_once() is S
    assert book.ticks["A"] == 3


def test_while_false_when_idle_skips():
    tree, book = build('<Sequence><Leaf name="A" _while="go"/><Leaf name="B"/></Sequence>')
    tree.root_blackboard.set("go", False)
    assert tree.tick_once() is S
    assert book.ticks == {"B": 1}


def test_while_false_while_running_halts_and_runs_on_halted_not_post():
    tree, book = build('<Sequence><Script code="h := 0; p := 0"/>'
                       '<Leaf name="A" _while="go" _onHalted="h := h + 1" _post="p := p + 1"/></Sequence>')
    tree.root_blackboard.set("go", True)
    book.set(A="R")
    assert tree.tick_once() is R
    tree.root_blackboard.set("go", False)
    assert tree.tick_once() is S  # A returns SKIPPED after being halted; the Sequence succeeds
    assert book.halts["A"] == 1
    assert value(tree, "h") == 1 and value(tree, "p") == 0


def test_on_halted_runs_when_a_parent_halts_the_node():
    tree, book = build('<Sequence><Script code="h := 0"/>'
                       '<ReactiveSequence><Leaf name="C"/><Leaf name="A" _onHalted="h := 7"/></ReactiveSequence>'
                       '</Sequence>')
    book.set(C="SF", A="R")
    assert tree.tick_once() is R
    assert tree.tick_once() is F
    assert value(tree, "h") == 7


def test_halt_tree_runs_on_halted_of_every_node_like_btcpp():
    tree, book = build('<Sequence><Script code="h := 0"/><Leaf name="A" _onHalted="h := h + 1"/></Sequence>')
    assert tree.tick_once() is S
    tree.halt_tree()  # BT.CPP's haltTree visits every node with haltNode(), even idle ones
    assert value(tree, "h") == 1


def test_post_conditions_on_ticked_results():
    tree, book = build('<Fallback><Leaf name="A" _onFailure="r := \'failed\'" _post="done := true"/>'
                       '<Leaf name="B" _onSuccess="r2 := \'ok\'"/></Fallback>')
    book.set(A="F")
    assert tree.tick_once() is S
    assert value(tree, "r") == "failed" and value(tree, "r2") == "ok"
    assert value(tree, "done")


def test_condition_on_a_control_node():
    tree, book = build('<Sequence _skipIf="true"><Leaf name="A"/></Sequence>')
    assert tree.tick_once() is K
    assert tree.nodes[0].status is I


def test_script_syntax_error_in_condition_names_line_and_node():
    with pytest.raises(XmlError) as error:
        build('<Sequence>\n  <Leaf name="A" _skipIf="x =="/>\n</Sequence>')
    assert error.value.line == 2
    assert error.value.node == "A (Leaf)"
    assert "_skipIf" in str(error.value)
