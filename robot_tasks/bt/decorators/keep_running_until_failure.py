"""KeepRunningUntilFailure (BT.CPP `keep_running_until_failure_node.h`)."""
from __future__ import annotations

from ..decorator_node import DecoratorNode
from ..status import FAILURE, RUNNING, SUCCESS, NodeStatus


class KeepRunningUntilFailureNode(DecoratorNode):
    """A child SUCCESS becomes RUNNING (child reset, ticked again next tick);
    FAILURE ends it. A SKIPPED child leaves the node's own status (RUNNING)."""

    def tick(self) -> NodeStatus:
        self.status = RUNNING
        child_status = self.child.execute_tick()
        if child_status is FAILURE:
            self.reset_child()
            return FAILURE
        if child_status is SUCCESS:
            self.reset_child()
            return RUNNING
        if child_status is RUNNING:
            return RUNNING
        return self.status
