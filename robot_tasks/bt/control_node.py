"""ControlNode: a node with one or more children (BT.CPP `control_node.cpp`)."""
from __future__ import annotations

from .errors import LogicError
from .node import NodeConfig, NodeType, TreeNode
from .status import IDLE, RUNNING


class ControlNode(TreeNode):
    node_type = NodeType.CONTROL

    def __init__(self, name: str, config: NodeConfig | None = None):
        super().__init__(name, config)
        self.children: list[TreeNode] = []

    def add_child(self, child: TreeNode) -> None:
        self.children.append(child)

    def children_count(self) -> int:
        return len(self.children)

    def halt(self) -> None:
        self.reset_children()
        self.status = IDLE

    def reset_children(self) -> None:
        """Halt every RUNNING child, then set every child to IDLE."""
        for child in self.children:
            if child.status is RUNNING:
                child.halt_node()
            child.status = IDLE

    def halt_child(self, index: int) -> None:
        child = self.children[index]
        if child.status is RUNNING:
            child.halt_node()
        child.status = IDLE

    def _child_returned_idle(self) -> LogicError:
        return LogicError(f"[{self.name}]: A child should not return IDLE")
