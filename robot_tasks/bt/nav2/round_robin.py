"""RoundRobin (Nav2 `round_robin_node.cpp`).

A Fallback with a memory of *where it stopped*. Each tick it starts at the child
after the one that last finished, not at the first child: Nav2 uses it to rotate
through recovery behaviours (clear costmap, spin, back up ...) so a repeated
failure tries the next remedy instead of the same one again.

- A child SUCCESS: advance the index (wrapping), halt/reset all children, return
  SUCCESS. The next tick starts at the following child.
- A child FAILURE: advance the index (wrapping) and count it; once every child has
  failed in a row, halt the node (index back to 0) and return FAILURE.
- A child RUNNING: return RUNNING; the same child is ticked next time.
- Any other status (SKIPPED) is a LogicError, as in Nav2.
halt() resets the index to the first child and the failure count.
"""
from __future__ import annotations

from ..control_node import ControlNode
from ..errors import LogicError
from ..node import NodeConfig
from ..status import FAILURE, RUNNING, SUCCESS, NodeStatus


class RoundRobinNode(ControlNode):
    """Fallback that resumes after the child that last finished (Nav2)."""

    def __init__(self, name: str, config: NodeConfig | None = None):
        super().__init__(name, config)
        self.current_child_idx = 0
        self.num_failed_children = 0

    def tick(self) -> NodeStatus:
        children = self.children
        count = len(children)
        self.status = RUNNING
        while self.num_failed_children < count:
            status = children[self.current_child_idx].execute_tick()
            if status is RUNNING:
                return RUNNING
            if status is not SUCCESS and status is not FAILURE:
                raise LogicError(f"[{self.name}]: Invalid status return from BT node ({status})")
            self.current_child_idx = (self.current_child_idx + 1) % count
            if status is SUCCESS:
                self.num_failed_children = 0
                self.reset_children()
                return SUCCESS
            self.num_failed_children += 1
        self.halt()
        return FAILURE

    def halt(self) -> None:
        ControlNode.halt(self)
        self.current_child_idx = 0
        self.num_failed_children = 0
