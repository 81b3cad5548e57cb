"""WhileDoElse (BT.CPP `while_do_else_node.cpp`)."""
from __future__ import annotations

from ..control_node import ControlNode
from ..errors import LogicError
from ..status import FAILURE, IDLE, RUNNING, SUCCESS, NodeStatus


class WhileDoElseNode(ControlNode):
    """Reactive if-then-else: the condition (child 0) is ticked every tick; SUCCESS
    runs child 1 (halting child 2), FAILURE runs child 2 (halting child 1) or, with
    two children, returns FAILURE."""

    def tick(self) -> NodeStatus:
        count = len(self.children)
        if count not in (2, 3):
            raise LogicError(f"[WhileDoElse '{self.name}'] must have either 2 or 3 children")
        self.status = RUNNING
        condition_status = self.children[0].execute_tick()
        if condition_status is RUNNING:
            return RUNNING
        status = IDLE
        if condition_status is SUCCESS:
            if count == 3:
                self.halt_child(2)
            status = self.children[1].execute_tick()
        elif condition_status is FAILURE:
            if count == 3:
                self.halt_child(1)
                status = self.children[2].execute_tick()
            else:
                status = FAILURE
        if status is RUNNING:
            return RUNNING
        self.reset_children()
        if status is IDLE:
            raise LogicError(f"[WhileDoElse '{self.name}']: the condition returned "
                             f"{condition_status.name}; it must return SUCCESS, FAILURE or RUNNING")
        return status
