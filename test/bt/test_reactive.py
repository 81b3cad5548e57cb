"""ReactiveSequence and ReactiveFallback, tick by tick."""
import pytest
from bt_helpers import F, I, K, R, S, build, make_factory, tree_xml

from robot_tasks.bt import XmlError


def test_reactive_sequence_reticks_conditions_every_tick():
    tree, book = build('<ReactiveSequence><Leaf name="C"/><Leaf name="A"/></ReactiveSequence>')
    book.set(A="RRS")
    assert [tree.tick_once() for _ in range(3)] == [R, R, S]
    assert book.ticks == {"C": 3, "A": 3}


def test_reactive_sequence_failure_halts_running_child():
    tree, book = build('<ReactiveSequence><Leaf name="C"/><Leaf name="A"/></ReactiveSequence>')
    book.set(C="SF", A="R")
    assert tree.tick_once() is R
    assert tree.tick_once() is F
    assert book.halts == {"A": 1}
    assert book.log == ["tick C", "tick A", "tick C", "halt A"]
    assert all(node.status is I for node in tree.nodes)


def test_reactive_sequence_earlier_running_child_halts_later_one():
    tree, book = build('<ReactiveSequence><Leaf name="A"/><Leaf name="B"/></ReactiveSequence>')
    book.set(A="SR", B="R")
    assert tree.tick_once() is R
    assert tree.tick_once() is R
    assert book.halts == {"B": 1}
    assert tree.nodes[2].status is I


def test_reactive_sequence_skipped_children():
    tree, book = build('<ReactiveSequence><Leaf name="A"/><Leaf name="B"/></ReactiveSequence>')
    book.set(A="K", B="K")
    assert tree.tick_once() is K
    book.set(A="K", B="S")
    assert tree.tick_once() is S


def test_reactive_fallback_success_halts_running_child():
    tree, book = build('<ReactiveFallback><Leaf name="C"/><Leaf name="A"/></ReactiveFallback>')
    book.set(C="FS", A="R")
    assert tree.tick_once() is R
    assert tree.tick_once() is S
    assert book.halts == {"A": 1}


def test_reactive_fallback_all_fail():
    tree, book = build('<ReactiveFallback><Leaf name="A"/><Leaf name="B"/></ReactiveFallback>')
    book.set(A="F", B="F")
    assert tree.tick_once() is F
    assert tree.tick_once() is F
    assert book.ticks == {"A": 2, "B": 2}


def test_two_async_children_halt_each_other_by_default():
    tree, book = build('<ReactiveSequence><Leaf name="A"/><Leaf name="B"/></ReactiveSequence>')
    book.set(A="SR", B="R")
    tree.tick_once()
    tree.tick_once()
    assert book.halts["B"] == 1


def test_reactive_sequence_rejects_two_async_sequences_in_xml():
    factory, _ = make_factory()
    body = ('<ReactiveSequence>\n<AsyncSequence><Leaf name="A"/></AsyncSequence>\n'
            '<AsyncSequence><Leaf name="B"/></AsyncSequence>\n</ReactiveSequence>')
    with pytest.raises(XmlError) as error:
        factory.create_tree_from_text(tree_xml(body))
    assert error.value.line == 3
    assert "more than one async child" in str(error.value)
