"""WakeUpSignal: how a node tells the tree "tick me again now" (BT.CPP `WakeUpSignal`).

A one-shot flag with a condition variable: `emit()` sets it (from any thread), and
`wait_for(timeout)` waits up to `timeout` seconds for it, returning whether it was set
and clearing it (consuming the signal), exactly like BT.CPP's `waitFor`.
"""
from __future__ import annotations

import threading


class WakeUpSignal:
    __slots__ = ("_condition", "_ready")

    def __init__(self) -> None:
        self._condition = threading.Condition(threading.Lock())
        self._ready = False

    def emit(self) -> None:
        with self._condition:
            self._ready = True
            self._condition.notify_all()

    def wait_for(self, timeout: float) -> bool:
        """Wait up to `timeout` s (0 = just poll); return True if a signal was pending."""
        with self._condition:
            if not self._ready and timeout > 0:
                self._condition.wait_for(lambda: self._ready, timeout)
            ready = self._ready
            self._ready = False
            return ready
