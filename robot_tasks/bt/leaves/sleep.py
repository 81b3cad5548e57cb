"""Sleep (BT.CPP `sleep_node.cpp`)."""
from __future__ import annotations

import threading

from ..action_nodes import StatefulActionNode
from ..node import NodeConfig
from ..ports import InputPort
from ..status import RUNNING, SUCCESS, NodeStatus
from ..timer_queue import shared_timer_queue


class SleepNode(StatefulActionNode):
    """RUNNING for `msec` ms, then SUCCESS. The timer emits wake-up when it expires,
    so `tick_while_running` returns promptly instead of polling."""

    @staticmethod
    def provided_ports():
        return [InputPort("msec", int, cpp_type="unsigned int")]

    def __init__(self, name: str, config: NodeConfig | None = None):
        super().__init__(name, config)
        self._lock = threading.Lock()
        self._timer_waiting = False
        self._timer_id = None

    def on_start(self) -> NodeStatus:
        msec = self.get_input("msec")
        if msec <= 0:
            return SUCCESS
        self.status = RUNNING
        self._timer_waiting = True
        self._timer_id = shared_timer_queue().add(msec / 1000.0, self._on_timer)
        return RUNNING

    def _on_timer(self) -> None:
        with self._lock:
            self._timer_waiting = False
        self.emit_wake_up_signal()

    def on_running(self) -> NodeStatus:
        return RUNNING if self._timer_waiting else SUCCESS

    def on_halted(self) -> None:
        self._timer_waiting = False
        if self._timer_id is not None:
            shared_timer_queue().cancel(self._timer_id)
            self._timer_id = None
