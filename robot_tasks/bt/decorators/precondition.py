"""Precondition (BT.CPP `script_precondition.h`)."""
from __future__ import annotations

from ..decorator_node import DecoratorNode
from ..node import NodeConfig
from ..ports import InputPort
from ..scripts import ScriptCache
from ..status import FAILURE, SUCCESS, NodeStatus


class PreconditionNode(DecoratorNode):
    """Evaluates the `if` script; when true, ticks the child and stays latched on it
    (no re-check) until the child completes. When false returns `else` (default
    FAILURE). The latch survives halt, as in BT.CPP."""

    @staticmethod
    def provided_ports():
        return [InputPort("if", str),
                InputPort("else", NodeStatus, default=FAILURE,
                          description="Return status if condition is false")]

    def __init__(self, name: str, config: NodeConfig | None = None):
        super().__init__(name, config)
        self._script = ScriptCache(self, "if", "Missing parameter [if] in Precondition")
        self._enums = self.config.enums
        self.children_running = False

    def tick(self) -> NodeStatus:
        test = self._script.load().test
        else_status = self.get_input("else")
        if not self.children_running:
            self.children_running = test(self.blackboard, self._enums)
            if not self.children_running:
                return else_status
        child_status = self.child.execute_tick()
        if child_status is SUCCESS or child_status is FAILURE:
            self.reset_child()
            self.children_running = False
        return child_status
