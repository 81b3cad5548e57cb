"""ForceFailure (BT.CPP `force_failure_node.h`)."""
from __future__ import annotations

from ..decorator_node import DecoratorNode
from ..status import FAILURE, RUNNING, SUCCESS, NodeStatus


class ForceFailureNode(DecoratorNode):
    """A completed child (SUCCESS or FAILURE) becomes FAILURE; RUNNING/SKIPPED pass."""

    def tick(self) -> NodeStatus:
        self.status = RUNNING
        child_status = self.child.execute_tick()
        if child_status is SUCCESS or child_status is FAILURE:
            self.reset_child()
            return FAILURE
        return child_status
