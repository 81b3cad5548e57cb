"""Repeat (BT.CPP `repeat_node.cpp`)."""
from __future__ import annotations

from ..decorator_node import DecoratorNode
from ..errors import LogicError
from ..node import NodeConfig
from ..ports import InputPort
from ..status import FAILURE, IDLE, RUNNING, SKIPPED, SUCCESS, NodeStatus


class RepeatNode(DecoratorNode):
    """Ticks the child until it succeeded `num_cycles` times (-1 = forever).

    A FAILURE ends it (FAILURE, counter reset). After each synchronous success with
    cycles left it yields RUNNING and emits wake-up, so `tick_once` keeps looping
    while `tick_exactly_once` sees one iteration per tick.
    """

    @staticmethod
    def provided_ports():
        return [InputPort("num_cycles", int, description="Repeat a successful child up to N times. "
                                                         "Use -1 to create an infinite loop.")]

    def __init__(self, name: str, config: NodeConfig | None = None):
        super().__init__(name, config)
        self.repeat_count = 0

    def tick(self) -> NodeStatus:
        num_cycles = self.get_input("num_cycles")
        do_loop = self.repeat_count < num_cycles or num_cycles == -1
        self.status = RUNNING
        child = self.child
        while do_loop:
            prev_status = child.status
            child_status = child.execute_tick()
            if child_status is SUCCESS:
                self.repeat_count += 1
                do_loop = self.repeat_count < num_cycles or num_cycles == -1
                self.reset_child()
                if self.config.wake_up is not None and prev_status is IDLE and do_loop:
                    self.emit_wake_up_signal()
                    return RUNNING
            elif child_status is FAILURE:
                self.repeat_count = 0
                self.reset_child()
                return FAILURE
            elif child_status is RUNNING:
                return RUNNING
            elif child_status is SKIPPED:
                self.reset_child()  # the counter is kept on purpose
                return SKIPPED
            else:
                raise LogicError(f"[{self.name}]: A child should not return IDLE")
        self.repeat_count = 0
        return SUCCESS

    def halt(self) -> None:
        self.repeat_count = 0
        DecoratorNode.halt(self)
