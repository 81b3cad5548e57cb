"""ForcedResultNode: the decorator behind ForceSuccess and ForceFailure.

Both let a running or skipped child pass through untouched and replace only the outcome
of a completed one: whether the child succeeded or failed, the node returns its
`forced` status (and resets the child), so the parent sees a fixed result.
"""
from __future__ import annotations

from ..decorator_node import DecoratorNode
from ..status import FAILURE, RUNNING, SUCCESS, NodeStatus


class ForcedResultNode(DecoratorNode):
    """A completed child (SUCCESS or FAILURE) becomes `forced`; RUNNING/SKIPPED pass."""

    forced: NodeStatus

    def tick(self) -> NodeStatus:
        self.status = RUNNING
        child_status = self.child.execute_tick()
        if child_status is SUCCESS or child_status is FAILURE:
            self.reset_child()
            return self.forced
        return child_status
