"""RecoveryNode (Nav2 `recovery_node.cpp`).

"Try, and if it fails, fix things and try again." The first child is the action
(e.g. navigate), the second the recovery (e.g. clear the costmaps). The node
allows `number_of_retries` recoveries (default 1, re-read every tick).

- Child 1 SUCCESS: halt/reset the node, return SUCCESS.
- Child 1 FAILURE with retries left: reset it and tick child 2 in the same tick;
  with none left: halt the node, return FAILURE.
- Child 1 SKIPPED: halt the node, return SKIPPED.
- Child 2 SUCCESS: one retry used; tick child 1 again at once (same tick).
- Child 2 FAILURE: halt the node, return FAILURE.
- Child 2 SKIPPED: no recovery is possible: reset it, go back to child 1 without
  counting a retry, return FAILURE.
- Either child RUNNING: return RUNNING and resume there next tick.
- Exactly two children, checked at tick time (a LogicError otherwise).
halt() resets the retry count and goes back to child 1.
"""
from __future__ import annotations

from ..control_node import ControlNode
from ..errors import LogicError
from ..node import NodeConfig
from ..ports import InputPort
from ..status import FAILURE, RUNNING, SKIPPED, SUCCESS, NodeStatus


class RecoveryNode(ControlNode):
    """Runs the recovery (child 2) after each failure of child 1, up to N times (Nav2)."""

    @staticmethod
    def provided_ports():
        return [InputPort("number_of_retries", int, default=1, description="Number of retries")]

    def __init__(self, name: str, config: NodeConfig | None = None):
        super().__init__(name, config)
        self.current_child_idx = 0
        self.retry_count = 0

    def tick(self) -> NodeStatus:
        retries = self.get_input("number_of_retries", 1)
        if len(self.children) != 2:
            raise LogicError(f"Recovery Node '{self.name}' must only have 2 children.")
        self.status = RUNNING
        while self.current_child_idx < 2 and self.retry_count <= retries:
            status = self.children[self.current_child_idx].execute_tick()
            if status is RUNNING:
                return RUNNING
            if status not in (SUCCESS, FAILURE, SKIPPED):
                raise LogicError("A child node must never return IDLE")
            if self.current_child_idx == 0:
                if status is FAILURE and self.retry_count < retries:
                    self.halt_child(0)
                    self.current_child_idx = 1
                    continue
                self.halt()
                return status  # SUCCESS, SKIPPED, or FAILURE with no retry left
            if status is SUCCESS:
                self.halt_child(1)
                self.retry_count += 1
                self.current_child_idx = 0
            elif status is SKIPPED:
                self.current_child_idx = 0
                self.halt_child(1)
                return FAILURE
            else:
                self.halt()
                return FAILURE
        self.halt()
        return FAILURE

    def halt(self) -> None:
        ControlNode.halt(self)
        self.retry_count = 0
        self.current_child_idx = 0
