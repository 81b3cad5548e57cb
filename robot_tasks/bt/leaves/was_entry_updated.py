"""WasEntryUpdated (BT.CPP 4.10 `updated_action.cpp`).

The condition-like action twin of SkipUnlessUpdated (see
`decorators/entry_updated.py` for the write counter it reads): SUCCESS when the
entry named by `entry` was written since this node last looked, FAILURE when it
was not or when the entry does not exist.
"""
from __future__ import annotations

from ..action_nodes import SyncActionNode
from ..decorators.entry_updated import EntryWatch, entry_port
from ..node import NodeConfig
from ..status import FAILURE, SUCCESS, NodeStatus


class WasEntryUpdatedNode(SyncActionNode):
    """SUCCESS if the entry was written since the last tick of this node, else FAILURE."""

    @staticmethod
    def provided_ports():
        return [entry_port()]

    def __init__(self, name: str, config: NodeConfig | None = None):
        super().__init__(name, config)
        self._watch = EntryWatch(self)

    def tick(self) -> NodeStatus:
        return SUCCESS if self._watch.updated(self.config.blackboard) else FAILURE
