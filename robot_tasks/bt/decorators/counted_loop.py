"""CountedLoopNode: the loop that Repeat and RetryUntilSuccessful share.

Repeat and RetryUntilSuccessful are one loop seen from its two sides (BT.CPP
`repeat_node.cpp` and `retry_node.cpp` are mirror images). The child is ticked again
and again; one completed status, `again`, counts a round and asks for another, the
other completed status ends the loop at once:

| node                 | `again` (a round) | ends the loop | rounds used up |
|----------------------|-------------------|---------------|----------------|
| Repeat               | SUCCESS           | FAILURE       | SUCCESS        |
| RetryUntilSuccessful | FAILURE           | SUCCESS       | FAILURE        |

The number of rounds comes from the port `limit_port` (-1 = forever). Both ends clear
the counter; a SKIPPED child ends the tick with SKIPPED and keeps it. After each round
that completed synchronously with rounds left, the node yields RUNNING and emits
wake-up, so `tick_once` keeps looping while `tick_exactly_once` sees one round per tick.
"""
from __future__ import annotations

from ..decorator_node import DecoratorNode
from ..errors import LogicError
from ..node import NodeConfig
from ..status import IDLE, RUNNING, SKIPPED, NodeStatus


class CountedLoopNode(DecoratorNode):
    """Ticks the child until `again` came `limit_port` times or the other status came once."""

    again: NodeStatus
    limit_port: str
    reread_limit = False  # read the limit again after every round (RetryUntilSuccessful)

    def __init__(self, name: str, config: NodeConfig | None = None):
        super().__init__(name, config)
        self.count = 0

    def tick(self) -> NodeStatus:
        limit = self.get_input(self.limit_port)
        do_loop = self.count < limit or limit == -1
        self.status = RUNNING
        child = self.child
        again = self.again
        while do_loop:
            prev_status = child.status
            child_status = child.execute_tick()
            if child_status is again:
                self.count += 1
                if self.reread_limit:
                    limit = self.get_input(self.limit_port, limit)
                do_loop = self.count < limit or limit == -1
                self.reset_child()
                if self.config.wake_up is not None and prev_status is IDLE and do_loop:
                    self.emit_wake_up_signal()
                    return RUNNING
            elif child_status is RUNNING:
                return RUNNING
            elif child_status is SKIPPED:
                self.reset_child()  # the counter is kept on purpose
                return SKIPPED
            elif child_status is IDLE:
                raise LogicError(f"[{self.name}]: A child should not return IDLE")
            else:  # the other completed status
                self.count = 0
                self.reset_child()
                return child_status
        self.count = 0
        return again

    def halt(self) -> None:
        self.count = 0
        DecoratorNode.halt(self)
