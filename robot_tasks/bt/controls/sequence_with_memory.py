"""SequenceWithMemory (BT.CPP `sequence_with_memory_node.cpp`)."""
from __future__ import annotations

from ..control_node import ControlNode
from ..status import SUCCESS
from .in_order import InOrderNode


class SequenceWithMemoryNode(InOrderNode):
    """A Sequence that remembers: after a FAILURE (or a halt) it resumes at the
    child that failed instead of starting over. Like AsyncSequence it yields RUNNING
    with wake-up after each child that completed synchronously."""

    proceed = SUCCESS
    asynch = True

    def _settle(self) -> None:
        # keep the index: the next tick retries the failed child
        for index in range(self.current_child_idx, len(self.children)):
            self.halt_child(index)

    def halt(self) -> None:
        # BT.CPP deliberately keeps current_child_idx here: a halted node resumes.
        ControlNode.halt(self)
