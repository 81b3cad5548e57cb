"""InOrderNode: the child-by-child loop of Sequence, Fallback and SequenceWithMemory.

Sequence and Fallback are one loop with the roles of SUCCESS and FAILURE swapped (BT.CPP's
`sequence_node.cpp` and `fallback_node.cpp` are mirror images). The node ticks its
children in order, starting at `current_child_idx`, the child where it stopped:

- a child that returns `proceed` hands over to the next one (Sequence: SUCCESS,
  Fallback: FAILURE);
- a child that returns the other completed status *settles* the node: it returns that
  status, resets its children and starts over at the first child next time;
- a RUNNING child ends the tick, and the next tick resumes at that child;
- a SKIPPED child is passed over and counted.

When every child is done the node resets them all and returns `proceed`, or SKIPPED when
every child was skipped. The asynchronous variants (`asynch`: AsyncSequence,
AsyncFallback, SequenceWithMemory) yield RUNNING with wake-up after each child that
completed synchronously (it was IDLE before this tick) while children are left, so the
tree can interrupt them between children.

SequenceWithMemory differs only in how it settles: it keeps its index, so the next tick
retries the child that failed, and halts only the children from there on (`_settle`).
"""
from __future__ import annotations

from ..control_node import ControlNode
from ..node import NodeConfig
from ..status import IDLE, RUNNING, SKIPPED, NodeStatus


class InOrderNode(ControlNode):
    """Ticks the children in order while they return `proceed` (see the module docstring)."""

    proceed: NodeStatus
    asynch = False

    def __init__(self, name: str, config: NodeConfig | None = None):
        super().__init__(name, config)
        self.current_child_idx = 0
        self.skipped_count = 0

    def tick(self) -> NodeStatus:
        children = self.children
        count = len(children)
        if self.status is IDLE:
            self.skipped_count = 0
        self.status = RUNNING
        proceed = self.proceed
        while self.current_child_idx < count:
            child = children[self.current_child_idx]
            prev_status = child.status
            child_status = child.execute_tick()
            if child_status is proceed:
                self.current_child_idx += 1
                if (self.asynch and prev_status is IDLE and self.current_child_idx < count
                        and self.config.wake_up is not None):
                    self.emit_wake_up_signal()
                    return RUNNING
            elif child_status is RUNNING:
                return RUNNING
            elif child_status is SKIPPED:
                self.current_child_idx += 1
                self.skipped_count += 1
            elif child_status is IDLE:
                raise self._child_returned_idle()
            else:  # the other completed status settles the node
                self._settle()
                return child_status
        all_skipped = self.skipped_count == count
        self.current_child_idx = 0
        self.skipped_count = 0
        self.reset_children()
        return SKIPPED if all_skipped else proceed

    def _settle(self) -> None:
        """A child ended the node: reset the children, start at the first one next time."""
        self.current_child_idx = 0
        self.reset_children()

    def halt(self) -> None:
        self.current_child_idx = 0
        ControlNode.halt(self)
