"""DecoratorNode: a node with exactly one child (BT.CPP `decorator_node.cpp`).

After every tick, a child that finished (SUCCESS/FAILURE) is reset to IDLE.
"""
from __future__ import annotations

from .node import NodeConfig, NodeType, TreeNode
from .status import FAILURE, IDLE, RUNNING, SUCCESS, NodeStatus


class DecoratorNode(TreeNode):
    node_type = NodeType.DECORATOR

    def __init__(self, name: str, config: NodeConfig | None = None):
        super().__init__(name, config)
        self.child: TreeNode | None = None

    def set_child(self, child: TreeNode) -> None:
        self.child = child

    @property
    def children(self) -> list[TreeNode]:
        return [self.child] if self.child is not None else []

    def add_child(self, child: TreeNode) -> None:
        self.child = child

    def execute_tick(self) -> NodeStatus:
        status = TreeNode.execute_tick(self)
        child = self.child
        child_status = child.status
        if child_status is SUCCESS or child_status is FAILURE:
            child.status = IDLE
        return status

    def _execute_tick_full(self) -> NodeStatus:
        status = TreeNode._execute_tick_full(self)
        child = self.child
        child_status = child.status
        if child_status is SUCCESS or child_status is FAILURE:
            child.status = IDLE
        return status

    def halt(self) -> None:
        self.reset_child()
        self.status = IDLE

    def reset_child(self) -> None:
        child = self.child
        if child is None:
            return
        if child.status is RUNNING:
            child.halt_node()
        child.status = IDLE

    halt_child = reset_child
