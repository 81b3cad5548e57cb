"""Timers in a recording and in its replay: Timeout and Delay fire where they fired in the run.

Timeout and Delay run on the wall clock: a timer thread fires them, between two ticks
or in the middle of one. A replay runs much faster than the run did, so a real timer
would fire at another moment (or never). Instead:

- while recording, a node's timer queue is wrapped (`RecordingTimers`): when one of its
  timers fires, the recorder writes `{"timer": path}` at that point of the stream, then
  the node's callback runs as usual;
- while replaying, the node gets a `VirtualTimers` queue that never fires by itself:
  the replay fires the node's pending timer exactly where the recording has its
  `timer` event.

Both plug in through `TreeNode.timer_queue()`, the one place Timeout and Delay get
their queue from.
"""
from __future__ import annotations

import itertools
from typing import Callable


class RecordingTimers:
    """The process-wide queue, with each callback announced to the recorder first."""

    def __init__(self, queue, on_fire: Callable[[], None]):
        self._queue = queue
        self._on_fire = on_fire

    def add(self, delay_s: float, callback: Callable[[], None]) -> int:
        def fire():
            self._on_fire()
            callback()
        return self._queue.add(delay_s, fire)

    def cancel(self, timer_id: int) -> bool:
        return self._queue.cancel(timer_id)


class VirtualTimers:
    """A queue that keeps its timers until `fire()` is called (one node's timers)."""

    _ids = itertools.count(1)

    def __init__(self) -> None:
        self.pending: dict[int, Callable[[], None]] = {}

    def add(self, delay_s: float, callback: Callable[[], None]) -> int:
        timer_id = next(self._ids)
        self.pending[timer_id] = callback
        return timer_id

    def cancel(self, timer_id: int) -> bool:
        return self.pending.pop(timer_id, None) is not None

    def fire(self) -> bool:
        """Fire the oldest pending timer; False when there is none."""
        if not self.pending:
            return False
        timer_id = min(self.pending)
        self.pending.pop(timer_id)()
        return True
