"""ParallelAll (BT.CPP `parallel_all_node.cpp`)."""
from __future__ import annotations

from ..control_node import ControlNode
from ..errors import LogicError
from ..node import NodeConfig
from ..ports import InputPort
from ..status import FAILURE, RUNNING, SKIPPED, SUCCESS, NodeStatus


class ParallelAllNode(ControlNode):
    """Ticks all children until every one completed, then returns FAILURE if at least
    `max_failures` failed (negative: N+t+1), otherwise SUCCESS."""

    @staticmethod
    def provided_ports():
        return [InputPort("max_failures", int, default=1,
                          description="if the number of failed children is >= this, return FAILURE")]

    def __init__(self, name: str, config: NodeConfig | None = None):
        super().__init__(name, config)
        self.completed: set[int] = set()
        self.failure_children = 0

    def tick(self) -> NodeStatus:
        max_failures = self.get_input("max_failures")
        count = len(self.children)
        threshold = max(count + max_failures + 1, 0) if max_failures < 0 else max_failures
        if count < threshold:
            raise LogicError(f"[ParallelAll '{self.name}']: number of children is less than threshold. "
                             f"Can never fail.")
        self.status = RUNNING
        skipped = 0
        for index, child in enumerate(self.children):
            if index in self.completed:
                continue
            child_status = child.execute_tick()
            if child_status is SUCCESS:
                self.completed.add(index)
            elif child_status is FAILURE:
                self.completed.add(index)
                self.failure_children += 1
            elif child_status is SKIPPED:
                skipped += 1
            elif child_status is not RUNNING:
                raise self._child_returned_idle()
        if skipped == count:
            return SKIPPED
        if skipped + len(self.completed) >= count:
            self.reset_children()
            self.completed.clear()
            result = FAILURE if self.failure_children >= threshold else SUCCESS
            self.failure_children = 0
            return result
        return RUNNING

    def halt(self) -> None:
        self.completed.clear()
        self.failure_children = 0
        ControlNode.halt(self)
