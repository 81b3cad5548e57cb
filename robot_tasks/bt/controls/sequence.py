"""Sequence and AsyncSequence (BT.CPP `sequence_node.cpp`)."""
from __future__ import annotations

from ..control_node import ControlNode
from ..node import NodeConfig
from ..status import FAILURE, IDLE, RUNNING, SKIPPED, SUCCESS, NodeStatus


class SequenceNode(ControlNode):
    """Tick children in order; FAILURE as soon as one fails, SUCCESS when all succeed.

    A RUNNING child is resumed at the next tick (earlier children are not re-ticked).
    On FAILURE all children are reset and the next tick starts from the first one.
    The async variant (AsyncSequence) yields RUNNING and emits wake-up after each
    child that completed synchronously, so the tree can interrupt it between children.
    """

    def __init__(self, name: str, config: NodeConfig | None = None):
        super().__init__(name, config)
        self.current_child_idx = 0
        self.skipped_count = 0

    def tick(self) -> NodeStatus:
        # The hottest loop of the engine: locals only, no async checks (see AsyncSequenceNode).
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
                self.current_child_idx = 0
                self.reset_children()
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

    def halt(self) -> None:
        self.current_child_idx = 0
        ControlNode.halt(self)


class AsyncSequenceNode(SequenceNode):
    """Sequence that returns RUNNING (with wake-up) after every synchronous child."""

    def tick(self) -> NodeStatus:
        children = self.children
        count = len(children)
        if self.status is IDLE:
            self.skipped_count = 0
        self.status = RUNNING
        while self.current_child_idx < count:
            child = children[self.current_child_idx]
            prev_status = child.status
            child_status = child.execute_tick()
            if child_status is SUCCESS:
                self.current_child_idx += 1
                if prev_status is IDLE and self.current_child_idx < count and self.config.wake_up is not None:
                    self.emit_wake_up_signal()
                    return RUNNING
            elif child_status is RUNNING:
                return RUNNING
            elif child_status is FAILURE:
                self.current_child_idx = 0
                self.reset_children()
                return FAILURE
            elif child_status is SKIPPED:
                self.current_child_idx += 1
                self.skipped_count += 1
            else:
                raise self._child_returned_idle()
        all_skipped = self.skipped_count == count
        self.current_child_idx = 0
        self.skipped_count = 0
        self.reset_children()
        return SKIPPED if all_skipped else SUCCESS
