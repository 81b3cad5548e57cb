"""Run a function on the node's executor thread, asked from any other thread.

    bridge = ThreadBridge(node)
    bridge.call_soon(future.set_result, outcome)     # from a worker thread

Why: rclpy objects (an action goal's Future, goal handles) are meant to be touched from
the executor thread, and an `async` execute callback awaiting an rclpy Future is only
resumed when the executor wakes up. `executor.create_task` does both: it is thread-safe
and wakes the executor, which then runs the queued functions. (A guard condition would
too, but rclpy's EventsExecutor does not support guard conditions.) No polling timer, so
a result reaches the client as soon as it exists.
"""
from __future__ import annotations

import threading
from collections import deque
from typing import Callable


class ThreadBridge:
    def __init__(self, node):
        self._node = node
        self._queue: deque = deque()
        self._lock = threading.Lock()
        self._closed = False

    def call_soon(self, fn: Callable, *args) -> bool:
        """Queue fn(*args) for the executor thread; False if the bridge is closed."""
        with self._lock:
            if self._closed:
                return False
            self._queue.append((fn, args))
            executor = self._node.executor
        if executor is None:             # not spinning yet: the queue waits for the next call
            return True
        executor.create_task(self._drain)
        return True

    def _drain(self) -> None:
        while True:
            with self._lock:
                if not self._queue:
                    return
                fn, args = self._queue.popleft()
            try:
                fn(*args)
            except Exception as err:  # one bad call must not stop the others
                self._node.get_logger().error(f"deferred call {getattr(fn, '__name__', fn)} failed: {err!r}")

    def close(self) -> None:
        """Refuse new calls (before the node is destroyed)."""
        with self._lock:
            self._closed = True
