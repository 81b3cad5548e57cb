"""IfThenElse (BT.CPP `if_then_else_node.cpp`)."""
from __future__ import annotations

from ..control_node import ControlNode
from ..errors import LogicError
from ..node import NodeConfig
from ..status import FAILURE, RUNNING, SUCCESS, NodeStatus


class IfThenElseNode(ControlNode):
    """Children: condition, then-branch, optional else-branch. Not reactive: the
    condition is ticked once, then the chosen branch is latched until it completes.
    With two children a failed condition returns FAILURE."""

    def __init__(self, name: str, config: NodeConfig | None = None):
        super().__init__(name, config)
        self.child_idx = 0

    def tick(self) -> NodeStatus:
        count = len(self.children)
        if count not in (2, 3):
            raise LogicError(f"[IfThenElse '{self.name}'] must have either 2 or 3 children")
        self.status = RUNNING
        if self.child_idx == 0:
            condition_status = self.children[0].execute_tick()
            if condition_status is RUNNING:
                return RUNNING
            if condition_status is SUCCESS:
                self.child_idx = 1
            elif condition_status is FAILURE:
                if count == 3:
                    self.child_idx = 2
                else:
                    return FAILURE
        if self.child_idx > 0:
            status = self.children[self.child_idx].execute_tick()
            if status is RUNNING:
                return RUNNING
            self.reset_children()
            self.child_idx = 0
            return status
        raise LogicError(f"[IfThenElse '{self.name}']: Something unexpected happened "
                         f"(the condition returned {condition_status.name})")

    def halt(self) -> None:
        self.child_idx = 0
        ControlNode.halt(self)
