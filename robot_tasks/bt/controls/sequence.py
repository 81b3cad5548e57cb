"""Sequence and AsyncSequence (BT.CPP `sequence_node.cpp`)."""
from __future__ import annotations

from ..status import FAILURE, IDLE, RUNNING, SKIPPED, SUCCESS, NodeStatus
from .in_order import InOrderNode


class SequenceNode(InOrderNode):
    """Tick children in order; FAILURE as soon as one fails, SUCCESS when all succeed.

    A RUNNING child is resumed at the next tick (earlier children are not re-ticked).
    On FAILURE all children are reset and the next tick starts from the first one.
    The async variant (AsyncSequence) yields RUNNING and emits wake-up after each
    child that completed synchronously, so the tree can interrupt it between children.
    Both are InOrderNode's loop; Sequence's own tick is that loop inlined for speed.
    """

    proceed = SUCCESS

    def tick(self) -> NodeStatus:
        # The hottest loop of the engine: InOrderNode.tick with locals only and no async checks.
        children = self.children
        if self.status is IDLE:
            self.skipped_count = 0
        self.status = RUNNING
        index = self.current_child_idx
        for child in children[index:] if index else children:
            child_status = child.execute_tick()
            if child_status is SUCCESS:
                index += 1
            elif child_status is RUNNING:
                self.current_child_idx = index
                return RUNNING
            elif child_status is FAILURE:
                self._settle()
                return FAILURE
            elif child_status is SKIPPED:
                index += 1
                self.skipped_count += 1
            else:
                raise self._child_returned_idle()
        all_skipped = self.skipped_count == len(children)
        self.current_child_idx = 0
        self.skipped_count = 0
        for child in children:  # resetChildren, inlined for speed
            if child.status is RUNNING:
                child.halt_node()
            child.status = IDLE
        return SKIPPED if all_skipped else SUCCESS


class AsyncSequenceNode(SequenceNode):
    """Sequence that returns RUNNING (with wake-up) after every synchronous child."""

    asynch = True
    tick = InOrderNode.tick  # the shared loop, not Sequence's inlined copy
