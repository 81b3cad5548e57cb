"""ReactiveFallback (BT.CPP `reactive_fallback.cpp`)."""
from __future__ import annotations

from ..control_node import ControlNode
from ..errors import LogicError
from ..node import NodeConfig
from ..status import FAILURE, IDLE, RUNNING, SKIPPED, SUCCESS, NodeStatus


class ReactiveFallbackNode(ControlNode):
    """Re-ticks every child from the first one at each tick; the mirror of
    ReactiveSequence (SUCCESS of a child ends it, FAILURE continues)."""

    throw_if_multiple_running = False

    def __init__(self, name: str, config: NodeConfig | None = None):
        super().__init__(name, config)
        self.running_child = -1

    @classmethod
    def enable_exception(cls, enable: bool) -> None:
        cls.throw_if_multiple_running = enable

    def tick(self) -> NodeStatus:
        all_skipped = True
        if self.status is IDLE:
            self.running_child = -1
        self.status = RUNNING
        children = self.children
        for index, child in enumerate(children):
            child_status = child.execute_tick()
            all_skipped = all_skipped and child_status is SKIPPED
            if child_status is RUNNING:
                for other in range(len(children)):
                    if other != index:
                        self.halt_child(other)
                if self.running_child == -1:
                    self.running_child = index
                elif self.throw_if_multiple_running and self.running_child != index:
                    raise LogicError(f"[ReactiveFallback '{self.name}']: only a single child can "
                                     f"return RUNNING")
                return RUNNING
            if child_status is SUCCESS:
                self.reset_children()
                return SUCCESS
            if child_status is SKIPPED:
                self.halt_child(index)
            elif child_status is not FAILURE:
                raise self._child_returned_idle()
        self.reset_children()
        return SKIPPED if all_skipped else FAILURE

    def halt(self) -> None:
        self.running_child = -1
        ControlNode.halt(self)
