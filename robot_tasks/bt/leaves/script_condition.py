"""ScriptCondition (BT.CPP `script_condition.h`)."""
from __future__ import annotations

from ..action_nodes import ConditionNode
from ..node import NodeConfig, _truthy
from ..ports import InputPort
from ..scripts import ScriptCache
from ..status import FAILURE, SUCCESS, NodeStatus


class ScriptConditionNode(ConditionNode):
    """SUCCESS if the script in port `code` evaluates to true, else FAILURE."""

    @staticmethod
    def provided_ports():
        return [InputPort("code", str, description="Piece of code that can be parsed. Must return false "
                                                   "or true")]

    def __init__(self, name: str, config: NodeConfig | None = None):
        super().__init__(name, config)
        self._script = ScriptCache(self, "code")

    def tick(self) -> NodeStatus:
        result = self._script.program().evaluate(self.config.blackboard, self.config.enums)
        return SUCCESS if _truthy(result) else FAILURE
