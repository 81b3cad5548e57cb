"""AlwaysSuccess and AlwaysFailure (BT.CPP `always_success_node.h` / `always_failure_node.h`)."""
from __future__ import annotations

from ..action_nodes import SyncActionNode
from ..status import FAILURE, SUCCESS, NodeStatus


class AlwaysSuccessNode(SyncActionNode):
    def tick(self) -> NodeStatus:
        return SUCCESS


class AlwaysFailureNode(SyncActionNode):
    def tick(self) -> NodeStatus:
        return FAILURE
