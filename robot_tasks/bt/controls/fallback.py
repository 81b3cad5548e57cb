"""Fallback and AsyncFallback (BT.CPP `fallback_node.cpp`)."""
from __future__ import annotations

from ..control_node import ControlNode
from ..node import NodeConfig
from ..status import FAILURE, IDLE, RUNNING, SKIPPED, SUCCESS, NodeStatus


class FallbackNode(ControlNode):
    """Tick children in order until one does not fail: the mirror image of Sequence.

    SUCCESS as soon as a child succeeds (all children reset); FAILURE when every
    child failed; SKIPPED when every child was skipped.
    """

    asynch = False

    def __init__(self, name: str, config: NodeConfig | None = None):
        super().__init__(name, config)
        self.current_child_idx = 0
        self.skipped_count = 0

    def tick(self) -> NodeStatus:
        children = self.children
        count = len(children)
        if self.status is IDLE:
            self.skipped_count = 0
        self.status = RUNNING
        index = self.current_child_idx
        while index < count:
            child = children[index]
            prev_status = child.status
            child_status = child.execute_tick()
            if child_status is FAILURE:
                index += 1
                if self.asynch and prev_status is IDLE and index < count and self.config.wake_up is not None:
                    self.current_child_idx = index
                    self.emit_wake_up_signal()
                    return RUNNING
            elif child_status is RUNNING:
                self.current_child_idx = index
                return RUNNING
            elif child_status is SUCCESS:
                self.current_child_idx = 0
                self.reset_children()
                return SUCCESS
            elif child_status is SKIPPED:
                index += 1
                self.skipped_count += 1
            else:
                raise self._child_returned_idle()
        all_skipped = self.skipped_count == count
        self.current_child_idx = 0
        self.skipped_count = 0
        self.reset_children()
        return SKIPPED if all_skipped else FAILURE

    def halt(self) -> None:
        self.current_child_idx = 0
        ControlNode.halt(self)


class AsyncFallbackNode(FallbackNode):
    """Fallback that returns RUNNING (with wake-up) after every synchronous failure."""

    asynch = True
