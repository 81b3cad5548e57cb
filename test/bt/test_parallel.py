"""Parallel (thresholds, negatives, early return, skipped) and ParallelAll."""
import pytest
from bt_helpers import F, I, K, R, S, build

from robot_tasks.bt import LogicError


def test_parallel_default_needs_all_successes():
    tree, book = build('<Parallel><Leaf name="A"/><Leaf name="B"/></Parallel>')
    book.set(A="S", B="RS")
    assert tree.tick_once() is R
    assert tree.tick_once() is S
    assert book.ticks == {"A": 1, "B": 2}  # completed children are not re-ticked


def test_parallel_default_fails_on_first_failure_and_halts_running():
    tree, book = build('<Parallel><Leaf name="A"/><Leaf name="B"/><Leaf name="C"/></Parallel>')
    book.set(A="R", B="F", C="S")
    assert tree.tick_once() is F
    assert book.ticks == {"A": 1, "B": 1}  # thresholds checked after every child: C never ticked
    assert book.halts == {"A": 1}


def test_parallel_success_count_one():
    tree, book = build('<Parallel success_count="1"><Leaf name="A"/><Leaf name="B"/></Parallel>')
    book.set(A="R", B="S")
    assert tree.tick_once() is S
    assert book.halts == {"A": 1}


def test_parallel_negative_thresholds():
    tree, book = build('<Parallel success_count="-2" failure_count="-1">'
                       '<Leaf name="A"/><Leaf name="B"/><Leaf name="C"/></Parallel>')
    book.set(A="S", B="F", C="S")
    assert tree.tick_once() is S  # -2 means N-1 = 2 successes


def test_parallel_fails_when_success_becomes_impossible():
    tree, book = build('<Parallel success_count="2" failure_count="3">'
                       '<Leaf name="A"/><Leaf name="B"/><Leaf name="C"/></Parallel>')
    book.set(A="F", B="F", C="R")
    assert tree.tick_once() is F
    assert book.ticks == {"A": 1, "B": 1}


def test_parallel_all_skipped():
    tree, book = build('<Parallel><Leaf name="A"/><Leaf name="B"/></Parallel>')
    book.set(A="K", B="K")
    assert tree.tick_once() is S  # default success_count=-1: success+skipped rule fires first
    tree, book = build('<Parallel success_count="2"><Leaf name="A"/><Leaf name="B"/></Parallel>')
    book.set(A="K", B="K")
    assert tree.tick_once() is K


def test_parallel_threshold_larger_than_children_is_an_error():
    tree, _ = build('<Parallel success_count="3"><Leaf name="A"/><Leaf name="B"/></Parallel>')
    with pytest.raises(LogicError, match="Can never succeed"):
        tree.tick_once()


def test_parallel_halt_clears_counts():
    tree, book = build('<Parallel><Leaf name="A"/><Leaf name="B"/></Parallel>')
    book.set(A="S", B="R")
    assert tree.tick_once() is R
    tree.halt_tree()
    book.set(A="S", B="S")
    assert tree.tick_once() is S
    assert book.ticks["A"] == 2


def test_parallel_all_waits_for_every_child():
    tree, book = build('<ParallelAll max_failures="2"><Leaf name="A"/><Leaf name="B"/><Leaf name="C"/>'
                       '</ParallelAll>')
    book.set(A="F", B="RS", C="RRF")
    assert [tree.tick_once() for _ in range(3)] == [R, R, F]
    assert book.ticks == {"A": 1, "B": 2, "C": 3}


def test_parallel_all_failure_threshold():
    tree, book = build('<ParallelAll max_failures="1"><Leaf name="A"/><Leaf name="B"/></ParallelAll>')
    book.set(A="F", B="RS")
    assert tree.tick_once() is R
    assert tree.tick_once() is F
    assert all(node.status is I for node in tree.nodes)
