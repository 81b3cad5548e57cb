"""UnsetBlackboard (BT.CPP `unset_blackboard_node.h`)."""
from __future__ import annotations

from ..action_nodes import SyncActionNode
from ..ports import InputPort
from ..status import SUCCESS, NodeStatus


class UnsetBlackboardNode(SyncActionNode):
    """Removes the entry named by `key` from the blackboard; always SUCCESS."""

    @staticmethod
    def provided_ports():
        return [InputPort("key", str, description="Key of the entry to remove")]

    def tick(self) -> NodeStatus:
        self.config.blackboard.unset(self.get_input("key"))
        return SUCCESS
