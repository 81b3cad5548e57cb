"""ScriptCondition (BT.CPP `script_condition.h`)."""
from __future__ import annotations

from ..action_nodes import ConditionNode
from ..node import NodeConfig
from ..ports import InputPort
from ..scripts import ScriptCache
from ..status import FAILURE, SUCCESS, NodeStatus


class ScriptConditionNode(ConditionNode):
    """SUCCESS if the script in port `code` evaluates to true, else FAILURE.

    The script is compiled for this node's blackboard when the node is created; a
    literal script's `test` closure is kept, so a tick is one call into it.
    """

    @staticmethod
    def provided_ports():
        # BT.CPP declares this port AnyTypeAllowed (Script's `code` is std::string)
        return [InputPort("code", str, cpp_type="BT::AnyTypeAllowed",
                          description="Piece of code that can be parsed. Must return false or true")]

    def __init__(self, name: str, config: NodeConfig | None = None):
        super().__init__(name, config)
        self._script = ScriptCache(self, "code", "Missing port [code] in ScriptCondition")
        self._test = self._script.bound.test if self._script.literal else None
        self._enums = self.config.enums

    def tick(self) -> NodeStatus:
        test = self._test or self._script.load().test
        return SUCCESS if test(self.blackboard, self._enums) else FAILURE

    def execute_tick(self) -> NodeStatus:
        # the lean path (no conditions, no callbacks) with tick() inlined
        test = self._test or self._script.load().test
        status = SUCCESS if test(self.blackboard, self._enums) else FAILURE
        self.status = status
        return status
