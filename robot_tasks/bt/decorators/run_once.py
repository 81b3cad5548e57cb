"""RunOnce (BT.CPP `run_once_node.h`)."""
from __future__ import annotations

from ..decorator_node import DecoratorNode
from ..node import NodeConfig
from ..ports import InputPort
from ..status import FAILURE, RUNNING, SKIPPED, SUCCESS, NodeStatus


class RunOnceNode(DecoratorNode):
    """Ticks the child until it completes once; afterwards returns SKIPPED
    (`then_skip=true`) or the remembered result. Never reset, not even by halt."""

    @staticmethod
    def provided_ports():
        return [InputPort("then_skip", bool, default=True,
                          description="If true, skip after the first execution, otherwise return "
                                      "the same NodeStatus returned once by the child.")]

    def __init__(self, name: str, config: NodeConfig | None = None):
        super().__init__(name, config)
        self.already_ticked = False
        self.returned_status = SKIPPED

    def tick(self) -> NodeStatus:
        skip = self.get_input("then_skip", True)
        if self.already_ticked:
            return SKIPPED if skip else self.returned_status
        self.status = RUNNING
        status = self.child.execute_tick()
        if status is SUCCESS or status is FAILURE:
            self.already_ticked = True
            self.returned_status = status
            self.reset_child()
        return status
