"""RetryUntilSuccessful (BT.CPP `retry_node.cpp`)."""
from __future__ import annotations

from ..decorator_node import DecoratorNode
from ..errors import LogicError
from ..node import NodeConfig
from ..ports import InputPort
from ..status import FAILURE, IDLE, RUNNING, SKIPPED, SUCCESS, NodeStatus


class RetryNode(DecoratorNode):
    """Ticks the child again after each FAILURE, up to `num_attempts` tries (-1 =
    forever); `num_attempts` is re-read after every failure. Yields RUNNING with
    wake-up between synchronous attempts."""

    @staticmethod
    def provided_ports():
        return [InputPort("num_attempts", int, description="Execute again a failing child up to N "
                                                           "times. Use -1 to create an infinite loop.")]

    def __init__(self, name: str, config: NodeConfig | None = None):
        super().__init__(name, config)
        self.try_count = 0

    def tick(self) -> NodeStatus:
        max_attempts = self.get_input("num_attempts")
        do_loop = self.try_count < max_attempts or max_attempts == -1
        self.status = RUNNING
        child = self.child
        while do_loop:
            prev_status = child.status
            child_status = child.execute_tick()
            if child_status is SUCCESS:
                self.try_count = 0
                self.reset_child()
                return SUCCESS
            if child_status is FAILURE:
                self.try_count += 1
                max_attempts = self.get_input("num_attempts", max_attempts)
                do_loop = self.try_count < max_attempts or max_attempts == -1
                self.reset_child()
                if self.config.wake_up is not None and prev_status is IDLE and do_loop:
                    self.emit_wake_up_signal()
                    return RUNNING
            elif child_status is RUNNING:
                return RUNNING
            elif child_status is SKIPPED:
                self.reset_child()
                return SKIPPED
            else:
                raise LogicError(f"[{self.name}]: A child should not return IDLE")
        self.try_count = 0
        return FAILURE

    def halt(self) -> None:
        self.try_count = 0
        DecoratorNode.halt(self)
