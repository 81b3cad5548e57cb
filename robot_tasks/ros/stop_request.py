"""SIGINT/SIGTERM as a flag a node's main loop polls, instead of an exception.

Python's default SIGINT handler (and a handler raising KeyboardInterrupt) interrupts the
main thread wherever it is -- even half-way through rclpy building a Future, which then
complains from its __del__ at exit. A flag lets the loop finish its step and stop cleanly.
"""
from __future__ import annotations

import signal


class StopRequest:
    """Set by SIGINT/SIGTERM once `install()`ed; call it to ask whether a stop was requested."""

    def __init__(self):
        self.requested = False

    def __call__(self) -> bool:
        return self.requested

    def handle(self, signum, _frame) -> None:
        self.requested = True
        signal.signal(signum, signal.SIG_DFL)   # a second signal ends a stuck shutdown

    def install(self, signals=(signal.SIGINT, signal.SIGTERM)) -> "StopRequest":
        for sig in signals:
            signal.signal(sig, self.handle)
        return self
