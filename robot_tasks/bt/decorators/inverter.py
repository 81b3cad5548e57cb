"""Inverter (BT.CPP `inverter_node.cpp`)."""
from __future__ import annotations

from ..decorator_node import DecoratorNode
from ..errors import LogicError
from ..status import FAILURE, IDLE, RUNNING, SKIPPED, SUCCESS, NodeStatus


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

    def execute_tick(self) -> NodeStatus:
        # The lean path with tick() and the decorator's child reset inlined (inverted
        # conditions are everywhere in guards).
        self.status = RUNNING
        child = self.child
        child_status = child.execute_tick()
        if child_status is SUCCESS or child_status is FAILURE:
            if child.status is RUNNING:  # reset_child()
                child.halt_node()
            child.status = IDLE
            status = FAILURE if child_status is SUCCESS else SUCCESS
            self.status = status
            return status
        if child_status is RUNNING:
            self.status = RUNNING
        elif child_status is not SKIPPED:
            raise LogicError(f"[{self.name}]: A child should not return IDLE")
        child_stored = child.status
        if child_stored is SUCCESS or child_stored is FAILURE:
            child.status = IDLE
        return child_status
