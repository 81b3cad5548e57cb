"""Nav2's PipelineSequence, RoundRobin and RecoveryNode, tick by tick (opt-in registration)."""
import pytest
from bt_helpers import F, I, K, R, S, build, make_factory

from robot_tasks.bt import LogicError, XmlError
from robot_tasks.bt.nav2 import register_nav2_nodes


def nav2_build(body):
    factory, book = make_factory()
    register_nav2_nodes(factory)
    return build(body, factory=factory, book=book)


def test_nav2_nodes_are_opt_in():
    with pytest.raises(XmlError, match="PipelineSequence"):
        build('<PipelineSequence><Leaf name="A"/></PipelineSequence>')


def test_pipeline_sequence_reticks_earlier_children_while_a_later_one_runs():
    tree, book = nav2_build('<PipelineSequence><Leaf name="A"/><Leaf name="B"/><Leaf name="C"/>'
                            '</PipelineSequence>')
    book.set(A="RS", B="RRS", C="RS")
    assert tree.tick_once() is R and book.log == ["tick A"]
    assert tree.tick_once() is R and book.log[1:] == ["tick A", "tick B"]
    # A succeeds again, B (at the furthest index) is still running: stop at B
    assert tree.tick_once() is R and book.log[3:] == ["tick A", "tick B"]
    assert tree.tick_once() is R and book.log[5:] == ["tick A", "tick B", "tick C"]
    assert tree.tick_once() is S and book.log[8:] == ["tick A", "tick B", "tick C"]
    assert all(node.status is I for node in tree.nodes)


def test_pipeline_sequence_earlier_running_child_does_not_stop_the_walk():
    tree, book = nav2_build('<PipelineSequence><Leaf name="A"/><Leaf name="B"/></PipelineSequence>')
    book.set(A="SR", B="RRS")
    assert tree.tick_once() is R                    # A S, B R (index 1)
    assert tree.tick_once() is R                    # A R (before index 1): go on, B R
    assert book.log == ["tick A", "tick B", "tick A", "tick B"]
    assert tree.tick_once() is S                    # A R, B S: done; A is halted
    assert book.halts["A"] == 1


def test_pipeline_sequence_failure_halts_and_restarts():
    tree, book = nav2_build('<PipelineSequence><Leaf name="A"/><Leaf name="B"/></PipelineSequence>')
    book.set(A="SSSF", B="R")
    assert [tree.tick_once() for _ in range(4)] == [R, R, R, F]
    assert book.halts["B"] == 1 and tree.nodes[0].last_child_ticked == 0


def test_pipeline_sequence_all_skipped_and_halt():
    tree, book = nav2_build('<PipelineSequence><Leaf name="A"/><Leaf name="B"/></PipelineSequence>')
    book.set(A="K", B="K")
    assert tree.tick_once() is K
    book.set(A="S", B="R")
    tree.tick_once()
    tree.halt_tree()
    assert book.halts["B"] == 1 and tree.nodes[0].last_child_ticked == 0


def test_round_robin_resumes_after_the_last_child():
    tree, book = nav2_build('<RoundRobin><Leaf name="A"/><Leaf name="B"/><Leaf name="C"/></RoundRobin>')
    book.set(A="S", B="FS", C="S")
    assert tree.tick_once() is S and book.log == ["tick A"]
    assert tree.tick_once() is S and book.log[1:] == ["tick B", "tick C"]   # B fails, C succeeds
    assert tree.tick_once() is S and book.log[3:] == ["tick A"]              # wraps around
    assert tree.tick_once() is S and book.log[4:] == ["tick B"]


def test_round_robin_fails_when_all_fail_in_a_row_then_restarts_at_first():
    tree, book = nav2_build('<RoundRobin><Leaf name="A"/><Leaf name="B"/></RoundRobin>')
    book.set(A="RF", B="F")
    assert tree.tick_once() is R
    assert tree.tick_once() is F and book.log == ["tick A", "tick A", "tick B"]
    book.set(A="S")
    assert tree.tick_once() is S and book.log[3:] == ["tick A"]


def test_round_robin_skipped_children_and_halt():
    tree, book = nav2_build('<RoundRobin><Leaf name="A"/><Leaf name="B"/></RoundRobin>')
    book.set(A="S", B="R")
    tree.tick_once()
    assert tree.tick_once() is R
    tree.halt_tree()
    assert book.halts["B"] == 1 and tree.nodes[0].current_child_idx == 0
    book.set(A="K", B="K")
    assert tree.tick_once() is K  # every child skipped in this tick
    book.set(A="K", B="S")
    assert tree.tick_once() is S and book.log[-2:] == ["tick A", "tick B"]  # a skip moves on
    book.set(A="F", B="K")
    assert tree.tick_once() is F  # one failure and one skip in a row: FAILURE, not SKIPPED


def test_recovery_node_retries_after_each_successful_recovery():
    tree, book = nav2_build('<RecoveryNode number_of_retries="2"><Leaf name="A"/><Leaf name="B"/>'
                            '</RecoveryNode>')
    book.set(A="FFS", B="S")
    assert tree.tick_once() is S  # A F, B S, A F, B S, A S: all in one tick
    assert book.log == ["tick A", "tick B", "tick A", "tick B", "tick A"]
    book.set(A="F")
    assert tree.tick_once() is F  # the count was reset: 2 recoveries again, then FAILURE
    assert book.ticks["A"] == 6 and book.ticks["B"] == 4


def test_recovery_node_running_children_and_failed_recovery():
    tree, book = nav2_build('<RecoveryNode><Leaf name="A"/><Leaf name="B"/></RecoveryNode>')
    book.set(A="RF", B="RF")
    assert [tree.tick_once() for _ in range(3)] == [R, R, F]
    assert book.log == ["tick A", "tick A", "tick B", "tick B"]
    assert all(node.status is I for node in tree.nodes)


def test_recovery_node_skipped_children():
    tree, book = nav2_build('<RecoveryNode><Leaf name="A"/><Leaf name="B"/></RecoveryNode>')
    book.set(A="K")
    assert tree.tick_once() is K
    book.set(A="F", B="K")
    assert tree.tick_once() is F  # a skipped recovery means no recovery is possible
    assert tree.nodes[0].retry_count == 0 and book.ticks["B"] == 1


def test_recovery_node_needs_two_children_at_tick_time():
    tree, _ = nav2_build('<RecoveryNode><Leaf name="A"/></RecoveryNode>')
    with pytest.raises(LogicError, match="2 children"):
        tree.tick_once()
