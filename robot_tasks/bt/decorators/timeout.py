"""Timeout (BT.CPP `timeout_node.h`)."""
from __future__ import annotations

import threading

from ..decorator_node import DecoratorNode
from ..node import NodeConfig
from ..ports import InputPort
from ..status import FAILURE, RUNNING, SUCCESS, NodeStatus


class TimeoutNode(DecoratorNode):
    """Halts a child that is still RUNNING after `msec` ms and then returns FAILURE.

    The timer starts at the first tick. When it fires, the timer thread halts the
    child and emits wake-up, so a tree waiting in `tick_while_running` reacts at once;
    the next tick returns FAILURE. `msec=0` disables the timeout.
    """

    @staticmethod
    def provided_ports():
        return [InputPort("msec", int, cpp_type="unsigned int", description="After a certain amount of time, halt() the child "
                                                   "if it is still running.")]

    def __init__(self, name: str, config: NodeConfig | None = None):
        super().__init__(name, config)
        self._lock = threading.RLock()
        self._timer_started = False
        self._child_halted = False
        self._timer_id = None

    def tick(self) -> NodeStatus:
        msec = self.get_input("msec")
        if not self._timer_started:
            self._timer_started = True
            self.status = RUNNING
            self._child_halted = False
            if msec > 0:
                self._timer_id = self.timer_queue().add(msec / 1000.0, self._on_timeout)
        with self._lock:
            if self._child_halted:
                self._timer_started = False
                return FAILURE
            child_status = self.child.execute_tick()
            if child_status is SUCCESS or child_status is FAILURE:
                self._timer_started = False
                self._cancel_timer()
                self.reset_child()
            return child_status

    def _on_timeout(self) -> None:
        with self._lock:
            if self.child.status is RUNNING:
                self._child_halted = True
                self.halt_child()
                self.emit_wake_up_signal()

    def _cancel_timer(self) -> None:
        if self._timer_id is not None:
            self.timer_queue().cancel(self._timer_id)
            self._timer_id = None

    def halt(self) -> None:
        self._timer_started = False
        self._cancel_timer()
        DecoratorNode.halt(self)
