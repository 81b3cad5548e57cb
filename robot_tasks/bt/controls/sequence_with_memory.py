"""SequenceWithMemory (BT.CPP `sequence_with_memory_node.cpp`)."""
from __future__ import annotations

from ..control_node import ControlNode
from ..node import NodeConfig
from ..status import FAILURE, IDLE, RUNNING, SKIPPED, SUCCESS, NodeStatus


class SequenceWithMemoryNode(ControlNode):
    """A Sequence that remembers: after a FAILURE (or a halt) it resumes at the
    child that failed instead of starting over. Like AsyncSequence it yields RUNNING
    with wake-up after each child that completed synchronously."""

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
        while self.current_child_idx < count:
            child = children[self.current_child_idx]
            prev_status = child.status
            child_status = child.execute_tick()
            if child_status is SUCCESS:
                self.current_child_idx += 1
                if (self.config.wake_up is not None and prev_status is IDLE
                        and self.current_child_idx < count):
                    self.emit_wake_up_signal()
                    return RUNNING
            elif child_status is RUNNING:
                return RUNNING
            elif child_status is FAILURE:
                # keep the index: the next tick retries the failed child
                for index in range(self.current_child_idx, count):
                    self.halt_child(index)
                return FAILURE
            elif child_status is SKIPPED:
                self.current_child_idx += 1
                self.skipped_count += 1
            else:
                raise self._child_returned_idle()
        all_skipped = self.skipped_count == count
        if self.current_child_idx == count:
            self.reset_children()
            self.current_child_idx = 0
            self.skipped_count = 0
        return SKIPPED if all_skipped else SUCCESS

    def halt(self) -> None:
        # BT.CPP deliberately keeps current_child_idx here: a halted node resumes.
        ControlNode.halt(self)
