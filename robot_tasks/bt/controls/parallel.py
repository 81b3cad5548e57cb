"""Parallel (BT.CPP `parallel_node.cpp`), and ParallelBase, what it shares with ParallelAll."""
from __future__ import annotations

from ..control_node import ControlNode
from ..errors import LogicError
from ..node import NodeConfig
from ..ports import InputPort
from ..status import FAILURE, RUNNING, SKIPPED, SUCCESS, NodeStatus


class ParallelBase(ControlNode):
    """The bookkeeping of Parallel and ParallelAll, which tick all children 'at once'
    (one after the other within a tick).

    A child that completed (SUCCESS or FAILURE) is booked in `completed` and not ticked
    again until the node itself completes; a SKIPPED child is ticked again next time
    and counts only for the tick it was skipped in. A threshold port given as a
    negative t means N+t+1 of the N children (-1 = all of them).
    """

    kind: str  # the BT.CPP node name, for error messages

    def __init__(self, name: str, config: NodeConfig | None = None):
        super().__init__(name, config)
        self.completed: set[int] = set()
        self.success_children = 0
        self.failure_children = 0

    def _resolve(self, threshold: int) -> int:
        if threshold < 0:
            return max(len(self.children) + threshold + 1, 0)
        return threshold

    def _check_threshold(self, required: int, outcome: str) -> None:
        """Refuse a threshold above the number of children: the node could never `outcome`."""
        if len(self.children) < required:
            raise LogicError(f"[{self.kind} '{self.name}']: number of children is less than threshold. "
                             f"Can never {outcome}.")

    def _tick_child(self, index: int, child) -> NodeStatus:
        """Tick a child that has not completed yet and book what it returned."""
        child_status = child.execute_tick()
        if child_status is SUCCESS:
            self.completed.add(index)
            self.success_children += 1
        elif child_status is FAILURE:
            self.completed.add(index)
            self.failure_children += 1
        elif child_status is not SKIPPED and child_status is not RUNNING:
            raise self._child_returned_idle()
        return child_status

    def _clear(self) -> None:
        self.completed.clear()
        self.success_children = 0
        self.failure_children = 0

    def halt(self) -> None:
        self._clear()
        ControlNode.halt(self)


class ParallelNode(ParallelBase):
    """SUCCESS once `success_count` children succeeded, FAILURE once `failure_count`
    failed or success became impossible (negative thresholds: see ParallelBase).
    Thresholds are checked after every child, so reaching one ends the tick early; on
    completion running children are halted.
    """

    kind = "Parallel"

    @staticmethod
    def provided_ports():
        return [InputPort("success_count", int, default=-1,
                          description="number of children that must succeed (-1 = all)"),
                InputPort("failure_count", int, default=1,
                          description="number of children that must fail (-1 = all)")]

    def __init__(self, name: str, config: NodeConfig | None = None):
        super().__init__(name, config)
        self.success_threshold = -1
        self.failure_threshold = 1

    def tick(self) -> NodeStatus:
        self.success_threshold = self.get_input("success_count")
        self.failure_threshold = self.get_input("failure_count")
        count = len(self.children)
        required_success = self._resolve(self.success_threshold)
        required_failure = self._resolve(self.failure_threshold)
        self._check_threshold(required_success, "succeed")
        self._check_threshold(required_failure, "fail")
        self.status = RUNNING
        skipped = 0
        for index, child in enumerate(self.children):
            if index not in self.completed and self._tick_child(index, child) is SKIPPED:
                skipped += 1
            if self.success_children >= required_success or (
                    self.success_threshold < 0 and self.success_children + skipped >= required_success):
                self._clear()
                self.reset_children()
                return SUCCESS
            if (count - self.failure_children < required_success
                    or self.failure_children == required_failure):
                self._clear()
                self.reset_children()
                return FAILURE
        return SKIPPED if skipped == count else RUNNING
