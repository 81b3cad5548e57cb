"""Hand work from ROS callbacks (executor thread) to the stepping thread that owns the World.

    inbox = Inbox()
    inbox.post(controller_command, msg)          # subscription: fire and forget
    result = inbox.call(reset, seed, timeout=30)  # service: wait for the stepping thread
    inbox.drain()                                 # stepping thread, between physics steps

`collections.deque.append/popleft` are atomic in CPython, so posting needs no lock, and
the stepping thread's per-step check is a single truth test of the deque.
"""
from __future__ import annotations

import threading
from collections import deque
from typing import Callable

from robot_tasks.ros.errors import RosError


class InboxClosed(RosError):
    """The stepping thread has stopped; the call was not run."""


class _Call:
    __slots__ = ("fn", "args", "done", "result", "error")

    def __init__(self, fn, args):
        self.fn, self.args = fn, args
        self.done = threading.Event()
        self.result = self.error = None

    def __call__(self) -> None:
        try:
            self.result = self.fn(*self.args)
        except BaseException as err:  # noqa: BLE001 - handed back to the waiting caller
            self.error = err
        finally:
            self.done.set()


class Inbox:
    def __init__(self, on_error: Callable[[BaseException], None] | None = None):
        self._queue: deque = deque()
        self.pending = self._queue       # read-only view for a cheap `if inbox.pending:` per step
        self._closed = False
        self._on_error = on_error

    def __bool__(self) -> bool:
        return bool(self._queue)

    def post(self, fn: Callable, *args) -> None:
        """Run fn(*args) on the stepping thread soon (dropped once closed)."""
        if not self._closed:
            self._queue.append((fn, args))

    def call(self, fn: Callable, *args, timeout: float = 30.0):
        """Run fn(*args) on the stepping thread and return its result (or raise its error)."""
        if self._closed:
            raise InboxClosed("the simulation is stopping")
        job = _Call(fn, args)
        self._queue.append((job, ()))
        waited = 0.0
        while not job.done.wait(0.05):        # slices: notice close() even if posted late
            waited += 0.05
            if self._closed:
                raise InboxClosed("the simulation is stopping")
            if waited >= timeout:
                raise TimeoutError(f"the stepping thread did not run the request within {timeout} s")
        if job.error is not None:
            raise job.error
        return job.result

    def drain(self) -> None:
        """Stepping thread: run everything posted so far, in order."""
        queue = self._queue
        while queue:
            fn, args = queue.popleft()
            try:
                fn(*args)
            except Exception as err:  # noqa: BLE001 - one bad message must not stop the sim
                if self._on_error is None:
                    raise
                self._on_error(err)

    def close(self) -> None:
        """Refuse new work and fail every waiting call (so the executor can shut down)."""
        self._closed = True
        while self._queue:
            fn, _ = self._queue.popleft()
            if isinstance(fn, _Call):
                fn.error = InboxClosed("the simulation is stopping")
                fn.done.set()
