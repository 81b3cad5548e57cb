"""Script (BT.CPP `script_node.h`)."""
from __future__ import annotations

from ..action_nodes import SyncActionNode
from ..node import NodeConfig
from ..ports import InputPort
from ..scripts import ScriptCache
from ..status import SUCCESS, NodeStatus


class ScriptNode(SyncActionNode):
    """Runs the script in port `code` (e.g. `count += 1; done := true`); always SUCCESS.

    Compiled for this node's blackboard when the node is created (see ScriptCondition).
    """

    @staticmethod
    def provided_ports():
        return [InputPort("code", str, description="Piece of code that can be parsed")]

    def __init__(self, name: str, config: NodeConfig | None = None):
        super().__init__(name, config)
        self._script = ScriptCache(self, "code", "Missing port [code] in Script")
        self._run = self._script.bound.run if self._script.literal else None
        self._enums = self.config.enums

    def tick(self) -> NodeStatus:
        run = self._run or self._script.load().run
        run(self.blackboard, self._enums)
        return SUCCESS

    def execute_tick(self) -> NodeStatus:
        # the lean path (no conditions, no callbacks) with tick() inlined
        run = self._run or self._script.load().run
        run(self.blackboard, self._enums)
        self.status = SUCCESS
        return SUCCESS
