"""Decorators tick by tick: statuses, child tick/halt counts, wake-up yields, timers."""
import pytest
from bt_helpers import F, I, K, R, S, build


@pytest.mark.parametrize("decorator, child, expected", [
    ("Inverter", "S", F), ("Inverter", "F", S), ("Inverter", "R", R), ("Inverter", "K", K),
    ("ForceSuccess", "F", S), ("ForceSuccess", "S", S), ("ForceSuccess", "R", R), ("ForceSuccess", "K", K),
    ("ForceFailure", "S", F), ("ForceFailure", "F", F), ("ForceFailure", "R", R), ("ForceFailure", "K", K),
    ("KeepRunningUntilFailure", "S", R), ("KeepRunningUntilFailure", "F", F),
    ("KeepRunningUntilFailure", "R", R), ("KeepRunningUntilFailure", "K", R),
])
def test_simple_decorators(decorator, child, expected):
    tree, book = build(f'<{decorator}><Leaf name="A"/></{decorator}>')
    book.set(A=child)
    assert tree.tick_once() is expected
    if child in "SF":
        assert tree.nodes[1].status is I  # a completed child is reset by its decorator


def test_repeat_counts_successes_and_yields_between_iterations():
    tree, book = build('<Repeat num_cycles="3"><Leaf name="A"/></Repeat>')
    assert [tree.tick_exactly_once() for _ in range(3)] == [R, R, S]
    assert book.ticks["A"] == 3
    assert tree.tick_once() is S  # tick_once follows the wake-up signal through all cycles
    assert book.ticks["A"] == 6


def test_repeat_failure_resets_counter():
    tree, book = build('<Repeat num_cycles="3"><Leaf name="A"/></Repeat>')
    book.set(A="SF")
    assert tree.tick_once() is F
    book.set(A="S")
    assert tree.tick_once() is S
    assert book.ticks["A"] == 5


def test_repeat_running_child_and_zero_cycles():
    tree, book = build('<Repeat num_cycles="2"><Leaf name="A"/></Repeat>')
    book.set(A="RSRS")
    # after a success that followed RUNNING there is no yield: the next cycle starts in the same tick
    assert [tree.tick_exactly_once() for _ in range(3)] == [R, R, S]
    assert book.ticks["A"] == 4
    tree, book = build('<Repeat num_cycles="0"><Leaf name="A"/></Repeat>')
    assert tree.tick_once() is S and book.ticks["A"] == 0


def test_repeat_skipped_child_keeps_counter():
    tree, book = build('<Repeat num_cycles="2"><Leaf name="A"/></Repeat>')
    book.set(A="SK")
    assert tree.tick_exactly_once() is R
    assert tree.tick_exactly_once() is K
    book.set(A="S")
    assert tree.tick_exactly_once() is S  # one more success completes the 2 cycles
    assert book.ticks["A"] == 3


def test_repeat_reads_blackboard_and_rejects_missing_port():
    tree, book = build('<Sequence><Script code="n := 2"/><Repeat num_cycles="{n}"><Leaf name="A"/></Repeat>'
                       '</Sequence>')
    assert tree.tick_once() is S and book.ticks["A"] == 2


def test_retry_until_successful():
    tree, book = build('<RetryUntilSuccessful num_attempts="3"><Leaf name="A"/></RetryUntilSuccessful>')
    book.set(A="FFS")
    assert tree.tick_once() is S
    assert book.ticks["A"] == 3
    book.set(A="F")
    assert [tree.tick_exactly_once() for _ in range(3)] == [R, R, F]
    assert book.ticks["A"] == 6


def test_retry_running_and_skipped():
    tree, book = build('<RetryUntilSuccessful num_attempts="-1"><Leaf name="A"/></RetryUntilSuccessful>')
    book.set(A="RFK")
    assert tree.tick_once() is R
    assert tree.tick_once() is K  # FAILURE then retry at once (child was RUNNING), then SKIPPED


def test_run_once_skips_afterwards_and_survives_halt():
    tree, book = build('<RunOnce><Leaf name="A"/></RunOnce>')
    book.set(A="RF")
    assert tree.tick_once() is R
    assert tree.tick_once() is F
    tree.halt_tree()
    assert tree.tick_once() is K
    assert book.ticks["A"] == 2


def test_run_once_then_skip_false_repeats_result():
    tree, book = build('<RunOnce then_skip="false"><Leaf name="A"/></RunOnce>')
    book.set(A="F")
    assert [tree.tick_once() for _ in range(3)] == [F, F, F]
    assert book.ticks["A"] == 1


def test_precondition_checks_once_and_latches():
    tree, book = build('<Sequence><Script code="go := true"/>'
                       '<Precondition if="go" else="FAILURE"><Leaf name="A"/></Precondition></Sequence>')
    book.set(A="RS")
    assert tree.tick_once() is R
    tree.root_blackboard.set("go", False)
    assert tree.tick_once() is S  # no re-check while the child runs
    assert tree.tick_once() is S  # Script sets go := true again before the check


def test_precondition_else_status():
    tree, book = build('<Precondition if="1 == 2" else="SKIPPED"><Leaf name="A"/></Precondition>')
    assert tree.tick_once() is K
    assert book.ticks["A"] == 0
    tree, book = build('<Precondition if="false"><Leaf name="A"/></Precondition>')
    assert tree.tick_once() is F


def test_timeout_halts_a_slow_child():
    tree, book = build('<Timeout msec="20"><Leaf name="A"/></Timeout>')
    book.set(A="R")
    assert tree.tick_while_running(sleep_s=1.0) is F  # wake-up ends the 1 s wait early
    assert book.halts["A"] == 1


def test_timeout_passes_a_fast_child_and_zero_disables():
    tree, book = build('<Timeout msec="5000"><Leaf name="A"/></Timeout>')
    book.set(A="RS")
    assert tree.tick_while_running(sleep_s=0.001) is S
    tree, book = build('<Timeout msec="0"><Leaf name="A"/></Timeout>')
    book.set(A="RRS")
    assert tree.tick_while_running(sleep_s=0.001) is S
    assert book.halts["A"] == 0


def test_delay_ticks_child_after_timer():
    tree, book = build('<Delay delay_msec="10"><Leaf name="A"/></Delay>')
    assert tree.tick_exactly_once() is R
    assert book.ticks["A"] == 0
    assert tree.tick_while_running(sleep_s=1.0) is S
    assert book.ticks["A"] == 1


def test_delay_halt_cancels():
    tree, book = build('<Delay delay_msec="10000"><Leaf name="A"/></Delay>')
    assert tree.tick_once() is R
    tree.halt_tree()
    assert tree.nodes[0].status is I
    assert book.ticks["A"] == 0


def test_subtree_node_is_transparent():
    tree, book = build('<SubTree ID="Sub"/>', '<BehaviorTree ID="Sub"><Leaf name="A"/></BehaviorTree>')
    book.set(A="RF")
    assert tree.tick_once() is R
    assert tree.nodes[0].status is R
    assert tree.tick_once() is F
    assert tree.nodes[1].status is I
