"""RoundRobin (Nav2 `round_robin_node.cpp`, as since Nav2's move to BT.CPP 4.5, Jazzy on).

A Fallback with a memory of *where it stopped*. Each tick it starts at the child
after the one that last finished, not at the first child: Nav2 uses it to rotate
through recovery behaviours (clear costmap, spin, back up ...) so a repeated
failure tries the next remedy instead of the same one again.

- A child that finishes (SUCCESS, FAILURE or SKIPPED) moves the index on, wrapping
  around after the last child.
- A child SUCCESS: halt/reset all children, return SUCCESS. The next tick starts at
  the following child.
- A child FAILURE is counted (the count survives between ticks and is cleared by a
  success); a SKIPPED child is counted for this tick only. Once every child has
  failed or been skipped in a row, the node halts (index back to 0) and returns
  FAILURE, or SKIPPED when every child was skipped in this tick.
- A child RUNNING: return RUNNING; the same child is ticked next time.
halt() resets the index to the first child and the failure count.
"""
from __future__ import annotations

from ..control_node import ControlNode
from ..errors import LogicError
from ..node import NodeConfig
from ..status import FAILURE, RUNNING, SKIPPED, SUCCESS, NodeStatus


class RoundRobinNode(ControlNode):
    """Fallback that resumes after the child that last finished (Nav2)."""

    def __init__(self, name: str, config: NodeConfig | None = None):
        super().__init__(name, config)
        self.current_child_idx = 0
        self.num_failed_children = 0

    def tick(self) -> NodeStatus:
        children = self.children
        count = len(children)
        skipped = 0
        self.status = RUNNING
        while self.num_failed_children + skipped < count:
            status = children[self.current_child_idx].execute_tick()
            if status is RUNNING:
                return RUNNING
            if status is not SUCCESS and status is not FAILURE and status is not SKIPPED:
                raise LogicError(f"[{self.name}]: Invalid status return from BT node ({status})")
            self.current_child_idx = (self.current_child_idx + 1) % count
            if status is SUCCESS:
                self.num_failed_children = 0
                self.reset_children()
                return SUCCESS
            if status is FAILURE:
                self.num_failed_children += 1
            else:
                skipped += 1
        self.halt()
        return SKIPPED if skipped == count else FAILURE

    def halt(self) -> None:
        ControlNode.halt(self)
        self.current_child_idx = 0
        self.num_failed_children = 0
