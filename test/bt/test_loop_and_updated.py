"""LoopInt/Double/String/Bool, SkipUnlessUpdated, WaitValueUpdate, WasEntryUpdated.

Tick by tick in our engine, then the same trees in BT.CPP 4.8.2 (behaviortreepy)
through the differential harness (test/bt/difftest): root status, leaf calls and
root blackboard after every tick and halt must be equal. Where 4.10 (our target)
differs from the 4.8.2 oracle, the test says so and checks our 4.10 behaviour alone.
"""
import sys
from collections import deque
from pathlib import Path

import pytest
from bt_helpers import F, I, K, R, S, build

from robot_tasks.bt import RuntimeTreeError, XmlError

sys.path.insert(0, str(Path(__file__).resolve().parent))

from difftest.engines import OracleEngine, OurEngine  # noqa: E402
from difftest.generator import Case, Plan  # noqa: E402
from difftest.leaves import ACTION, STATEFUL, LeafSpec  # noqa: E402
from difftest.runner import first_difference, mismatch_report, run_case  # noqa: E402


# ---- Loop* ---------------------------------------------------------------------------
def test_loop_int_pops_one_value_per_tick_then_returns_if_empty():
    tree, book = build('<LoopInt queue="4;5;6" value="{v}"><Leaf name="A"/></LoopInt>')
    seen = []
    for _ in range(4):
        status = tree.tick_exactly_once()
        seen.append((status, tree.root_blackboard.get("v")))
    assert seen == [(R, 4), (R, 5), (R, 6), (S, 6)]  # no wake-up: N values need N+1 ticks
    assert book.ticks["A"] == 3
    assert tree.tick_once() is R and tree.root_blackboard.get("v") == 4  # the literal queue is copied again


def test_loop_running_child_is_not_popped_again_and_failure_stops():
    tree, book = build('<LoopInt queue="1;2;3" value="{v}"><Leaf name="A"/></LoopInt>')
    book.set(A="RSF")
    assert tree.tick_once() is R and tree.root_blackboard.get("v") == 1
    assert tree.tick_once() is R and tree.root_blackboard.get("v") == 1  # A still running: no pop
    assert tree.tick_once() is F and tree.root_blackboard.get("v") == 2
    assert tree.nodes[0].status is I and book.ticks["A"] == 3


def test_loop_if_empty_and_types():
    tree, book = build('<LoopDouble queue="" if_empty="FAILURE" value="{v}"><Leaf name="A"/></LoopDouble>')
    assert tree.tick_once() is F and book.ticks["A"] == 0
    tree, _ = build('<LoopDouble queue="1.5;2" value="{v}"><Leaf name="A"/></LoopDouble>')
    tree.tick_once()
    assert tree.root_blackboard.get("v") == 1.5
    tree, _ = build('<LoopBool queue="true;0" value="{v}"><Leaf name="A"/></LoopBool>')
    values = []
    for _ in range(2):
        tree.tick_once()
        values.append(tree.root_blackboard.get("v"))
    assert values == [True, False]
    tree, _ = build('<LoopString queue="a b;c" if_empty="SKIPPED" value="{v}"><Leaf name="A"/></LoopString>')
    assert [tree.tick_once() for _ in range(3)] == [R, R, K]
    assert tree.root_blackboard.get("v") == "c"


def test_loop_literal_that_does_not_convert_is_a_creation_error():
    with pytest.raises(XmlError, match="queue"):
        build('<LoopInt queue="1;two" value="{v}"><Leaf name="A"/></LoopInt>')


def test_loop_over_a_blackboard_deque_pops_it_in_place():
    tree, book = build('<Sequence><LoopInt queue="{q}" value="{v}"><Leaf name="A"/></LoopInt></Sequence>')
    shared = deque([7, 8])
    tree.root_blackboard.set("q", shared)
    assert tree.tick_once() is R and list(shared) == [8]
    shared.append(9)  # a producer may add values while the loop runs
    assert [tree.tick_once() for _ in range(3)] == [R, R, S]
    assert tree.root_blackboard.get("v") == 9 and not shared


def test_loop_over_a_list_or_string_converts_once_for_the_node_lifetime():
    tree, book = build('<LoopInt queue="{q}" value="{v}"><Leaf name="A"/></LoopInt>')
    tree.root_blackboard.set("q", [1, 2])
    assert [tree.tick_once() for _ in range(3)] == [R, R, S]
    assert tree.root_blackboard.get("q") == [1, 2]  # the list itself is left alone
    tree.root_blackboard.set("q", [5])
    assert tree.tick_once() is S and book.ticks["A"] == 2  # 4.10 keeps its (now empty) copy
    tree, _ = build('<LoopString queue="{q}" value="{v}"><Leaf name="A"/></LoopString>')
    tree.root_blackboard.set("q", "x;y")
    assert [tree.tick_once() for _ in range(3)] == [R, R, S]
    assert tree.root_blackboard.get("v") == "y"


def test_loop_over_an_empty_entry_is_an_error():
    tree, _ = build('<LoopInt queue="{q}" value="{v}"><Leaf name="A"/></LoopInt>')
    with pytest.raises(RuntimeTreeError, match="queue"):
        tree.tick_once()


def test_loop_halt_halts_the_child_and_restarts_the_literal_queue():
    tree, book = build('<LoopInt queue="1;2" value="{v}"><Leaf name="A"/></LoopInt>')
    book.set(A="R")
    tree.tick_once()
    tree.halt_tree()
    assert book.halts["A"] == 1
    book.set(A="S")
    assert tree.tick_once() is R and tree.root_blackboard.get("v") == 1


# ---- SkipUnlessUpdated / WaitValueUpdate / WasEntryUpdated -------------------------------
def test_skip_unless_updated_ticks_the_child_once_per_write():
    tree, book = build('<SkipUnlessUpdated entry="{v}"><Leaf name="A"/></SkipUnlessUpdated>')
    assert tree.tick_once() is K and book.ticks["A"] == 0  # the entry does not exist
    tree.root_blackboard.set("v", 1)
    assert tree.tick_once() is S and book.ticks["A"] == 1
    assert tree.tick_once() is K and book.ticks["A"] == 1
    tree.root_blackboard.set("v", 1)  # writing the same value is still an update
    assert tree.tick_once() is S and book.ticks["A"] == 2


def test_skip_unless_updated_keeps_ticking_a_running_child_and_bare_key_works():
    tree, book = build('<SkipUnlessUpdated entry="v"><Leaf name="A"/></SkipUnlessUpdated>')
    tree.root_blackboard.set("v", 1)
    book.set(A="RRS")
    assert [tree.tick_once() for _ in range(4)] == [R, R, S, K]
    assert book.ticks["A"] == 3


def test_entry_created_empty_by_a_port_is_not_an_update():
    tree, book = build('<Sequence><SkipUnlessUpdated entry="{v}"><Leaf name="A"/></SkipUnlessUpdated>'
                       '<Repeat num_cycles="{v}" _skipIf="true"><AlwaysSuccess/></Repeat></Sequence>')
    assert tree.root_blackboard.has_entry("v")  # created empty by the Repeat's port
    assert tree.tick_once() is K and book.ticks["A"] == 0


def test_wait_value_update_runs_until_a_write():
    tree, book = build('<WaitValueUpdate entry="{v}"><Leaf name="A"/></WaitValueUpdate>')
    assert [tree.tick_once() for _ in range(2)] == [R, R]
    tree.root_blackboard.set("v", "new")
    assert tree.tick_once() is S and book.ticks["A"] == 1
    assert tree.tick_once() is R


def test_entry_updated_halt_halts_the_running_child():
    """4.10 (BT.CPP #1112): a halted SkipUnlessUpdated halts its child; in 4.8 a parent's
    halt left the child RUNNING (only halt_tree's visitor reached it)."""
    tree, book = build('<ReactiveFallback><Leaf name="C"/>'
                       '<SkipUnlessUpdated entry="v"><Leaf name="A"/></SkipUnlessUpdated></ReactiveFallback>')
    tree.root_blackboard.set("v", 1)
    book.set(C="FS", A="R")
    assert tree.tick_once() is R
    assert tree.tick_once() is S  # C succeeds: the ReactiveFallback halts its running sibling
    assert book.halts["A"] == 1 and tree.nodes[3].status is I


def test_entry_updated_needs_the_entry_port():
    with pytest.raises(XmlError, match="entry"):
        build('<SkipUnlessUpdated><Leaf name="A"/></SkipUnlessUpdated>')


def test_was_entry_updated():
    tree, _ = build('<WasEntryUpdated entry="{v}"/>')
    assert tree.tick_once() is F
    tree.root_blackboard.set("v", 3)
    assert [tree.tick_once() for _ in range(2)] == [S, F]
    tree.root_blackboard.set("@v", 4)
    assert tree.tick_once() is S


# ---- against BT.CPP (behaviortreepy 0.1.4 = BT.CPP 4.8.2) --------------------------------
def _doc(body):
    return f'<root BTCPP_format="4"><BehaviorTree ID="Main">{body}</BehaviorTree></root>'


_STEP = '<Script code="t += 1"/>'
_EVEN_WRITE = '<Precondition if="(t &amp; 1) == 0" else="SUCCESS"><Script code="v := t"/></Precondition>'
ORACLE_CASES = {
    "loop_int_stateful": (
        _doc('<LoopInt queue="3;1;2" value="{n}"><Sequence><Script code="t += n"/><L0/></Sequence></LoopInt>'),
        [LeafSpec("L0", STATEFUL, ("RUNNING", "SUCCESS"), False)], ["t"], Plan("exactly", 9, (4,))),
    "loop_failure_and_if_empty": (
        _doc('<Sequence><LoopDouble queue="0.5;1.5" if_empty="FAILURE" value="{d}"><L0/></LoopDouble>'
             '<Script code="t += 1"/></Sequence>'),
        [LeafSpec("L0", ACTION, ("SUCCESS", "FAILURE", "SUCCESS"), False)], ["t"], Plan("once", 8)),
    "loop_string_bool": (
        _doc('<Sequence><LoopString queue="a;bb;c" value="{s}"><L0/></LoopString>'
             '<LoopBool queue="true;false" if_empty="SKIPPED" value="{b}"><L1/></LoopBool></Sequence>'),
        [LeafSpec("L0", ACTION, ("SUCCESS",), False), LeafSpec("L1", ACTION, ("SUCCESS",), False)],
        [], Plan("once", 9)),
    "skip_unless_updated": (
        _doc(f'<Sequence>{_STEP}{_EVEN_WRITE}<SkipUnlessUpdated entry="v"><L0/></SkipUnlessUpdated>'
             f'</Sequence>'),
        [LeafSpec("L0", STATEFUL, ("RUNNING", "SUCCESS", "FAILURE"), False)], ["t"], Plan("once", 10, (6,))),
    "wait_value_update": (
        _doc(f'<ReactiveSequence>{_STEP}<Precondition if="(t &amp; 3) == 0" else="SUCCESS">'
             f'<Script code="v := t"/></Precondition>'
             f'<WaitValueUpdate entry="{{v}}"><L0/></WaitValueUpdate></ReactiveSequence>'),
        [LeafSpec("L0", STATEFUL, ("SUCCESS", "RUNNING", "SUCCESS"), False)], ["t"], Plan("exactly", 13)),
    "was_entry_updated": (
        _doc(f'<Sequence>{_STEP}{_EVEN_WRITE}<Fallback><Sequence><WasEntryUpdated entry="{{v}}"/>'
             f'<Script code="hits += 1"/></Sequence><AlwaysSuccess/></Fallback></Sequence>'),
        [], ["t", "hits"], Plan("once", 7)),
}


@pytest.mark.parametrize("name", sorted(ORACLE_CASES))
def test_new_builtins_match_btcpp(name):
    xml, leaves, counters, plan = ORACLE_CASES[name]
    case = Case(seed=0, xml=xml, leaves=leaves, counters=counters, plan=plan)
    expected = run_case(OracleEngine(), case)
    actual = run_case(OurEngine(), case)
    assert all(step.result != "ERROR" for step in expected), expected
    index = first_difference(expected, actual)
    assert index is None, mismatch_report(case, plan, ("btcpp", "ours"), expected, actual, index)
