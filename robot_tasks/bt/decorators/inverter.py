"""Inverter (BT.CPP `inverter_node.cpp`)."""
from __future__ import annotations

from ..decorator_node import DecoratorNode
from ..errors import LogicError
from ..status import FAILURE, RUNNING, SKIPPED, SUCCESS, NodeStatus


class InverterNode(DecoratorNode):
    """SUCCESS becomes FAILURE and vice versa; RUNNING and SKIPPED pass through."""

    def tick(self) -> NodeStatus:
        self.status = RUNNING
        child_status = self.child.execute_tick()
        if child_status is SUCCESS:
            self.reset_child()
            return FAILURE
        if child_status is FAILURE:
            self.reset_child()
            return SUCCESS
        if child_status is RUNNING or child_status is SKIPPED:
            return child_status
        raise LogicError(f"[{self.name}]: A child should not return IDLE")
