"""StatusChangeLogger: the common shell of every logger (BT.CPP `abstract_logger.h`).

A logger watches every status change of every node of one tree. It subscribes with
`Tree.subscribe_status_changes` when created and unsubscribes on `close()` (or at
the end of a `with` block), so a tree without loggers pays nothing. Subclasses
implement `callback(timestamp_ns, node, previous, status)`, where the timestamp is
wall-clock nanoseconds since the epoch.

- `enabled = False` pauses a logger without unsubscribing it;
- `show_transition_to_idle = False` drops the changes back to IDLE (BT.CPP's
  `enableTransitionToIdle`), which halve the volume when only results matter.
Callbacks run in the thread that changed the status (the ticking thread, or a timer
thread), so they must be quick: the file loggers only queue and write elsewhere.
"""
from __future__ import annotations

import threading
import time
from collections import deque

from ..status import IDLE


class StatusChangeLogger:
    show_transition_to_idle = True

    def __init__(self, tree):
        self.tree = tree
        self.enabled = True
        self._subscription = tree.subscribe_status_changes(self._on_change)

    def _on_change(self, node, previous, status) -> None:
        if not self.enabled or (status is IDLE and not self.show_transition_to_idle):
            return
        self.callback(time.time_ns(), node, previous, status)

    def callback(self, timestamp_ns: int, node, previous, status) -> None:
        raise NotImplementedError

    def flush(self) -> None:
        """Write out whatever is buffered."""

    def close(self) -> None:
        """Stop logging and release the file; safe to call twice."""
        if self._subscription is not None:
            self._subscription.unsubscribe()
            self._subscription = None
            self.flush()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


class QueuedFileLogger(StatusChangeLogger):
    """A logger whose callback only queues, and a writer thread that empties the queue
    into a file every `write_period_s` (BT.CPP's file loggers work the same way), so a
    tick never waits for the disk. Subclasses open `self._file` before calling
    `start_writer()`, queue items from `callback`, and implement `write_items(items)`
    and `finish()` (what closes the file's content, e.g. a JSON array's bracket)."""

    write_period_s = 0.01

    def start_writer(self, tree, thread_name: str) -> None:
        self._queue: deque = deque()
        self._write_lock = threading.Lock()
        self._wake = threading.Event()
        self._running = True
        StatusChangeLogger.__init__(self, tree)
        self._writer = threading.Thread(target=self._write_loop, name=thread_name, daemon=True)
        self._writer.start()

    def write_items(self, items: list) -> None:
        raise NotImplementedError

    def finish(self) -> None:
        """Called once, after the last items were written and before the file is closed."""

    def _drain(self) -> None:
        with self._write_lock:
            queue, items = self._queue, []
            while queue:
                items.append(queue.popleft())
            if items and not self._file.closed:
                self.write_items(items)
                self._file.flush()

    def _write_loop(self) -> None:
        while self._running:
            self._wake.wait(self.write_period_s)
            self._wake.clear()
            self._drain()

    def flush(self) -> None:
        self._drain()

    def close(self) -> None:
        if self._subscription is None:
            return
        super().close()
        stop_writer(self)
        self._drain()
        self.finish()
        self._file.close()


def stop_writer(logger) -> None:
    """End a logger's writer thread: clear `_running`, wake it, wait for it to finish."""
    logger._running = False
    logger._wake.set()
    logger._writer.join()
