"""One background thread that fires delayed callbacks (BT.CPP's `TimerQueue`).

Sleep, Delay and Timeout share the process-wide queue from `shared_timer_queue()`
instead of starting a thread per timer. Callbacks run on the timer thread, so they
must be short (BT.CPP's nodes only set a flag, halt a child and emit wake-up).
"""
from __future__ import annotations

import heapq
import itertools
import logging
import threading
import time
from typing import Callable


class TimerQueue:
    def __init__(self) -> None:
        self._condition = threading.Condition()
        self._heap: list[tuple[float, int]] = []
        self._callbacks: dict[int, Callable[[], None]] = {}
        self._ids = itertools.count(1)
        self._thread: threading.Thread | None = None

    def add(self, delay_s: float, callback: Callable[[], None]) -> int:
        """Call `callback()` on the timer thread after `delay_s` seconds; return an id."""
        with self._condition:
            timer_id = next(self._ids)
            self._callbacks[timer_id] = callback
            heapq.heappush(self._heap, (time.monotonic() + max(0.0, delay_s), timer_id))
            if self._thread is None:
                self._thread = threading.Thread(target=self._run, name="bt-timers", daemon=True)
                self._thread.start()
            self._condition.notify()
            return timer_id

    def cancel(self, timer_id: int) -> bool:
        """Forget a timer; True if it had not fired yet."""
        with self._condition:
            return self._callbacks.pop(timer_id, None) is not None

    def _run(self) -> None:
        while True:
            with self._condition:
                while True:
                    # drop cancelled timers from the top of the heap
                    while self._heap and self._heap[0][1] not in self._callbacks:
                        heapq.heappop(self._heap)
                    if not self._heap:
                        self._condition.wait()
                        continue
                    deadline, timer_id = self._heap[0]
                    remaining = deadline - time.monotonic()
                    if remaining <= 0:
                        heapq.heappop(self._heap)
                        callback = self._callbacks.pop(timer_id)
                        break
                    self._condition.wait(remaining)
            try:
                callback()
            except Exception:  # a broken callback must not kill the shared timer thread
                logging.getLogger(__name__).exception("timer callback failed")


_shared: TimerQueue | None = None
_shared_lock = threading.Lock()


def shared_timer_queue() -> TimerQueue:
    global _shared
    with _shared_lock:
        if _shared is None:
            _shared = TimerQueue()
        return _shared
