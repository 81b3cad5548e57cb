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

import time

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
