"""TryCatch (BT.CPP 4.10 `try_catch_node.cpp`)."""
from __future__ import annotations

from ..control_node import ControlNode
from ..errors import LogicError
from ..node import NodeConfig
from ..ports import InputPort
from ..status import FAILURE, IDLE, RUNNING, SKIPPED, SUCCESS, NodeStatus


class TryCatchNode(ControlNode):
    """Children 0..N-2 run as a Sequence (the try block); if one fails, the last child
    (the catch block, for cleanup) runs to completion and TryCatch returns FAILURE.
    With `catch_on_halt=true`, halting the try block also runs the catch child once."""

    @staticmethod
    def provided_ports():
        return [InputPort("catch_on_halt", bool, default=False,
                          description="If true, the catch child is also executed when the node is halted "
                                      "during the try block")]

    def __init__(self, name: str, config: NodeConfig | None = None):
        super().__init__(name, config)
        self.current_child_idx = 0
        self.skipped_count = 0
        self.in_catch = False

    def tick(self) -> NodeStatus:
        children = self.children
        count = len(children)
        if count < 2:
            raise LogicError(f"[{self.name}]: TryCatch requires at least 2 children")
        if self.status is IDLE:
            self.skipped_count = 0
            self.in_catch = False
        self.status = RUNNING
        try_count = count - 1
        if self.in_catch:
            if children[-1].execute_tick() is RUNNING:
                return RUNNING
            self.reset_children()
            self.current_child_idx = 0
            self.in_catch = False
            return FAILURE
        while self.current_child_idx < try_count:
            child_status = children[self.current_child_idx].execute_tick()
            if child_status is RUNNING:
                return RUNNING
            if child_status is FAILURE:
                self.reset_children()
                self.current_child_idx = 0
                self.in_catch = True
                return self.tick()  # tick the catch child now
            if child_status is SUCCESS:
                self.current_child_idx += 1
            elif child_status is SKIPPED:
                self.current_child_idx += 1
                self.skipped_count += 1
            else:
                raise self._child_returned_idle()
        all_skipped = self.skipped_count == try_count
        self.reset_children()
        self.current_child_idx = 0
        self.skipped_count = 0
        return SKIPPED if all_skipped else SUCCESS

    def halt(self) -> None:
        children = self.children
        if (self.get_input("catch_on_halt", False) and not self.in_catch
                and self.status is not IDLE and len(children) >= 2):
            for index in range(len(children) - 1):
                self.halt_child(index)
            if children[-1].execute_tick() is RUNNING:
                self.halt_child(len(children) - 1)
        self.current_child_idx = 0
        self.skipped_count = 0
        self.in_catch = False
        ControlNode.halt(self)
