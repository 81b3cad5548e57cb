"""Sequence, Fallback and their async variants, tick by tick."""
from bt_helpers import F, I, K, R, S, build


def test_sequence_all_success_ticks_each_child_once():
    tree, book = build('<Sequence><Leaf name="A"/><Leaf name="B"/><Leaf name="C"/></Sequence>')
    assert tree.tick_once() is S
    assert book.ticks == {"A": 1, "B": 1, "C": 1}
    assert all(node.status is I for node in tree.nodes)


def test_sequence_resumes_running_child_without_reticking_earlier():
    tree, book = build('<Sequence><Leaf name="A"/><Leaf name="B"/><Leaf name="C"/></Sequence>')
    book.set(B="RRS")
    assert tree.tick_once() is R
    assert tree.nodes[0].status is R and tree.nodes[1].status is S and tree.nodes[2].status is R
    assert tree.tick_once() is R
    assert tree.tick_once() is S
    assert book.ticks == {"A": 1, "B": 3, "C": 1}


def test_sequence_failure_resets_and_restarts_from_first_child():
    tree, book = build('<Sequence><Leaf name="A"/><Leaf name="B"/><Leaf name="C"/></Sequence>')
    book.set(B="F")
    assert tree.tick_once() is F
    assert tree.tick_once() is F
    assert book.ticks == {"A": 2, "B": 2}
    assert all(node.status is I for node in tree.nodes)


def test_sequence_skipped_children_and_all_skipped():
    tree, book = build('<Sequence><Leaf name="A"/><Leaf name="B"/></Sequence>')
    book.set(A="K")
    assert tree.tick_once() is S
    book.set(A="K", B="K")
    assert tree.tick_once() is K


def test_sequence_halt_resets_index_and_halts_running_child():
    tree, book = build('<Sequence><Leaf name="A"/><Leaf name="B"/></Sequence>')
    book.set(B="R")
    assert tree.tick_once() is R
    tree.halt_tree()
    assert book.halts["B"] == 1
    assert all(node.status is I for node in tree.nodes)
    book.set(B="S")
    assert tree.tick_once() is S
    assert book.ticks["A"] == 2  # started over


def test_fallback_stops_at_first_success():
    tree, book = build('<Fallback><Leaf name="A"/><Leaf name="B"/><Leaf name="C"/></Fallback>')
    book.set(A="F", B="S")
    assert tree.tick_once() is S
    assert book.ticks == {"A": 1, "B": 1}


def test_fallback_all_fail_and_all_skipped():
    tree, book = build('<Fallback><Leaf name="A"/><Leaf name="B"/></Fallback>')
    book.set(A="F", B="F")
    assert tree.tick_once() is F
    book.set(A="K", B="K")
    assert tree.tick_once() is K
    book.set(A="K", B="F")
    assert tree.tick_once() is F


def test_fallback_resumes_running_child():
    tree, book = build('<Fallback><Leaf name="A"/><Leaf name="B"/></Fallback>')
    book.set(A="F", B="RF")
    assert tree.tick_once() is R
    assert tree.tick_once() is F
    assert book.ticks == {"A": 1, "B": 2}


def test_async_sequence_yields_between_children():
    tree, book = build('<AsyncSequence><Leaf name="A"/><Leaf name="B"/><Leaf name="C"/></AsyncSequence>')
    assert tree.tick_exactly_once() is R
    assert book.ticks == {"A": 1}
    assert tree.tick_exactly_once() is R
    assert tree.tick_exactly_once() is S
    assert book.ticks == {"A": 1, "B": 1, "C": 1}
    # tick_once re-ticks at once because of the wake-up signal
    assert tree.tick_once() is S
    assert book.ticks == {"A": 2, "B": 2, "C": 2}


def test_async_sequence_does_not_yield_after_a_child_that_was_running():
    tree, book = build('<AsyncSequence><Leaf name="A"/><Leaf name="B"/></AsyncSequence>')
    book.set(A="RS")
    assert tree.tick_exactly_once() is R
    assert tree.tick_exactly_once() is S  # A was RUNNING before, so no yield: B ticks at once
    assert book.ticks == {"A": 2, "B": 1}


def test_async_fallback_yields_after_each_synchronous_failure():
    tree, book = build('<AsyncFallback><Leaf name="A"/><Leaf name="B"/><Leaf name="C"/></AsyncFallback>')
    book.set(A="F", B="F", C="S")
    assert tree.tick_exactly_once() is R
    assert tree.tick_exactly_once() is R
    assert tree.tick_exactly_once() is S
    assert book.ticks == {"A": 1, "B": 1, "C": 1}


def test_sequence_with_memory_keeps_index_after_failure():
    tree, book = build('<SequenceWithMemory><Leaf name="A"/><Leaf name="B"/><Leaf name="C"/>'
                       '</SequenceWithMemory>')
    book.set(B="FS")
    assert tree.tick_once() is F
    assert book.ticks == {"A": 1, "B": 1}
    assert tree.tick_once() is S
    assert book.ticks == {"A": 1, "B": 2, "C": 1}


def test_sequence_with_memory_needs_one_exact_tick_per_child():
    tree, book = build('<SequenceWithMemory><Leaf name="A"/><Leaf name="B"/><Leaf name="C"/>'
                       '</SequenceWithMemory>')
    assert [tree.tick_exactly_once() for _ in range(3)] == [R, R, S]
    assert tree.tick_once() is S
    assert book.ticks == {"A": 2, "B": 2, "C": 2}


def test_sequence_with_memory_resumes_after_halt():
    tree, book = build('<SequenceWithMemory><Leaf name="A"/><Leaf name="B"/></SequenceWithMemory>')
    book.set(B="RS")
    assert tree.tick_once() is R
    tree.halt_tree()
    assert book.halts["B"] == 1
    assert tree.tick_once() is S
    assert book.ticks == {"A": 1, "B": 2}  # A not re-ticked: index kept by halt


def test_sequence_with_memory_all_skipped_stays_skipped_on_every_tick():
    # the skipped count is reset when the sequence completes (found by cross-checking BT.CPP)
    tree, book = build('<SequenceWithMemory><Leaf name="A"/><Leaf name="B"/></SequenceWithMemory>')
    book.set(A="K", B="K")
    assert [tree.tick_once() for _ in range(3)] == [K, K, K]
