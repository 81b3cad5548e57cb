"""ParallelAll (BT.CPP `parallel_all_node.cpp`)."""
from __future__ import annotations

from ..ports import InputPort
from ..status import FAILURE, RUNNING, SKIPPED, SUCCESS, NodeStatus
from .parallel import ParallelBase


class ParallelAllNode(ParallelBase):
    """Ticks all children until every one completed, then returns FAILURE if at least
    `max_failures` failed (negative: N+t+1), otherwise SUCCESS."""

    kind = "ParallelAll"

    @staticmethod
    def provided_ports():
        return [InputPort("max_failures", int, default=1,
                          description="if the number of failed children is >= this, return FAILURE")]

    def tick(self) -> NodeStatus:
        count = len(self.children)
        threshold = self._resolve(self.get_input("max_failures"))
        self._check_threshold(threshold, "fail")
        self.status = RUNNING
        skipped = 0
        for index, child in enumerate(self.children):
            if index not in self.completed and self._tick_child(index, child) is SKIPPED:
                skipped += 1
        if skipped == count:
            return SKIPPED
        if skipped + len(self.completed) >= count:
            result = FAILURE if self.failure_children >= threshold else SUCCESS
            self.reset_children()
            self._clear()
            return result
        return RUNNING
