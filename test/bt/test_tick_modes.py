"""tick_exactly_once / tick_once / tick_while_running and the wake-up rule."""
import threading

import pytest
from bt_helpers import I, K, R, S, build

from robot_tasks.bt import BehaviorTreeFactory, NodeStatus, StatefulActionNode


def test_tick_once_follows_wake_up_but_not_plain_running():
    tree, book = build('<SequenceWithMemory><Leaf name="A"/><Leaf name="B"/><Leaf name="C"/></SequenceWithMemory>')
    book.set(B="RS")
    assert tree.tick_once() is R  # A (yield, woken) then B RUNNING: no wake-up, so it stops
    assert book.ticks == {"A": 1, "B": 1}
    assert tree.tick_once() is S
    assert book.ticks == {"A": 1, "B": 2, "C": 1}


def test_tick_while_running_loops_until_done():
    tree, book = build('<Sequence><Leaf name="A"/><Leaf name="B"/></Sequence>')
    book.set(A="RRRS")
    assert tree.tick_while_running(sleep_s=0.0) is S
    assert book.ticks == {"A": 4, "B": 1}


def test_root_is_reset_after_completion():
    tree, _ = build('<Sequence><AlwaysSuccess/></Sequence>')
    tree.tick_once()
    assert tree.root_node.status is I


@pytest.mark.timeout(60)
def test_wake_up_from_another_thread_ends_the_wait_early():
    """Without the wake-up the loop would sleep 600 s and the timeout would fail the test."""
    done = threading.Event()

    class External(StatefulActionNode):
        def on_start(self):
            threading.Timer(0.02, self._finish).start()
            return NodeStatus.RUNNING

        def _finish(self):
            done.set()
            self.emit_wake_up_signal()

        def on_running(self):
            return NodeStatus.SUCCESS if done.is_set() else NodeStatus.RUNNING

        def on_halted(self):
            pass

    factory = BehaviorTreeFactory()
    factory.register_node_type(External)
    tree = factory.create_tree_from_text('<root BTCPP_format="4"><BehaviorTree ID="M"><External/></BehaviorTree>'
                                         '</root>')
    assert tree.tick_while_running(sleep_s=600.0) is S


def test_root_skipped_returns_skipped():
    tree, _ = build('<AlwaysSuccess _skipIf="true"/>')
    assert tree.tick_once() is K
    assert tree.tick_exactly_once() is K


def test_wake_up_left_by_tick_exactly_once_is_seen_by_the_next_tick_once():
    # BT.CPP only consumes a pending signal in the inner loop or in a sleep > 0
    tree, book = build('<SequenceWithMemory><Leaf name="A"/><Leaf name="B"/></SequenceWithMemory>')
    book.set(B="RS")
    assert tree.tick_exactly_once() is R  # A succeeded, the node yielded and emitted wake-up
    assert tree.tick_once() is S  # B RUNNING, the pending signal re-ticks at once: B SUCCESS
    assert book.ticks == {"A": 1, "B": 2}
