"""SubTree (BT.CPP `subtree_node.cpp`)."""
from __future__ import annotations

from ..decorator_node import DecoratorNode
from ..node import NodeConfig, NodeType
from ..status import FAILURE, IDLE, RUNNING, SUCCESS, NodeStatus


class SubTreeNode(DecoratorNode):
    """Transparent link to another BehaviorTree, which runs on its own child
    blackboard (see the XML builder for remapping). Returns the child's status."""

    node_type = NodeType.SUBTREE

    def __init__(self, name: str, config: NodeConfig | None = None):
        super().__init__(name, config)
        self.subtree_id = ""

    def tick(self) -> NodeStatus:
        if self.status is IDLE:
            self.status = RUNNING
        child_status = self.child.execute_tick()
        if child_status is SUCCESS or child_status is FAILURE:
            self.reset_child()
        return child_status
