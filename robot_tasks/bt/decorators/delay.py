"""Delay (BT.CPP `delay_node.cpp`)."""
from __future__ import annotations

import threading

from ..decorator_node import DecoratorNode
from ..node import NodeConfig
from ..ports import InputPort
from ..status import FAILURE, RUNNING, SUCCESS, NodeStatus


class DelayNode(DecoratorNode):
    """Returns RUNNING for `delay_msec` ms (a timer emits wake-up when it expires),
    then ticks the child and returns its status."""

    @staticmethod
    def provided_ports():
        return [InputPort("delay_msec", int, cpp_type="unsigned int", description="Tick the child after a few milliseconds")]

    def __init__(self, name: str, config: NodeConfig | None = None):
        super().__init__(name, config)
        self._lock = threading.Lock()
        self._delay_started = False
        self._delay_complete = False
        self._timer_id = None

    def tick(self) -> NodeStatus:
        msec = self.get_input("delay_msec")
        if not self._delay_started:
            self._delay_complete = False
            self._delay_started = True
            self.status = RUNNING
            self._timer_id = self.timer_queue().add(msec / 1000.0, self._on_timer)
        with self._lock:
            complete = self._delay_complete
        if not complete:
            return RUNNING
        child_status = self.child.execute_tick()
        if child_status is SUCCESS or child_status is FAILURE:
            self._delay_started = False
            self.reset_child()
        return child_status

    def _on_timer(self) -> None:
        with self._lock:
            self._delay_complete = True
        self.emit_wake_up_signal()

    def halt(self) -> None:
        self._delay_started = False
        if self._timer_id is not None:
            self.timer_queue().cancel(self._timer_id)
            self._timer_id = None
        DecoratorNode.halt(self)
