"""Script (BT.CPP `script_node.h`)."""
from __future__ import annotations

from ..action_nodes import SyncActionNode
from ..node import NodeConfig
from ..ports import InputPort
from ..scripts import ScriptCache
from ..status import SUCCESS, NodeStatus


class ScriptNode(SyncActionNode):
    """Runs the script in port `code` (e.g. `count += 1; done := true`); always SUCCESS."""

    @staticmethod
    def provided_ports():
        return [InputPort("code", str, description="Piece of code that can be parsed")]

    def __init__(self, name: str, config: NodeConfig | None = None):
        super().__init__(name, config)
        self._script = ScriptCache(self, "code")

    def tick(self) -> NodeStatus:
        self._script.program().evaluate(self.config.blackboard, self.config.enums)
        return SUCCESS
