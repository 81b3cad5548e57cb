"""What Groot2 reads about node statuses: the STATUS buffer and recorded transitions.

The buffer has 3 bytes per node (uint16 uid, uint8 status), in the order BT.CPP
uses: subtree by subtree, each subtree's nodes in creation order. It is kept up to
date by a status-change observer (`Tree.subscribe_status_changes`), so a STATUS
request only copies bytes. A node that goes back to IDLE is stored as 10 + the
status it had, so Groot2 can still colour the node that just finished.

While recording is on, every change is also appended as a transition
(microseconds since recording started, uid, new status), keeping the last 1000,
for GET_TRANSITIONS to collect.
"""
from __future__ import annotations

import struct
import threading
import time
from collections import deque

from ..status import IDLE
from .protocol import IDLE_OFFSET, pack_transition

MAX_TRANSITIONS = 1000


class StatusBuffer:
    def __init__(self, tree):
        self._lock = threading.Lock()
        self._offsets: dict[int, int] = {}
        buffer = bytearray()
        for subtree in tree.subtrees:
            for node in subtree.nodes:
                buffer += struct.pack("<HB", node.uid, 0)
                self._offsets[node.uid] = len(buffer) - 1
        self._buffer = buffer
        self.recording = False
        self._first_time_ns = 0
        self._transitions: deque = deque(maxlen=MAX_TRANSITIONS)

    def on_status_change(self, node, previous, new) -> None:
        """The observer callback (runs in the thread that changed the status). A byte
        store and a deque append are atomic under the GIL, so no lock is taken here."""
        self._buffer[self._offsets[node.uid]] = new.value if new is not IDLE else IDLE_OFFSET + previous.value
        if self.recording:
            self._transitions.append(((time.monotonic_ns() - self._first_time_ns) // 1000, node.uid, new.value))

    def snapshot(self) -> bytes:
        return bytes(self._buffer)

    def start_recording(self) -> int:
        """Start (or restart) recording; return the wall-clock start in microseconds."""
        with self._lock:
            self._first_time_ns = time.monotonic_ns()
            self._transitions.clear()
            self.recording = True
        return time.time_ns() // 1000

    def stop_recording(self) -> None:
        self.recording = False

    def take_transitions(self) -> bytes:
        """The recorded transitions as GET_TRANSITIONS sends them; the list is emptied."""
        transitions, records = self._transitions, []
        with self._lock:  # popleft while the tick thread appends: both are atomic
            while transitions:
                records.append(transitions.popleft())
        return b"".join(pack_transition(*record) for record in records)
