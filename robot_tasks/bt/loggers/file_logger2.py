"""FileLogger2: a `.btlog` file that Groot2 can replay (BT.CPP 4.10 `bt_file_logger_v2.cpp`).

The file is what Groot2's log viewer opens: the tree once, then every transition.
Layout (little-endian):

| bytes | content |
|---|---|
| 18 | the text `BTCPP4-FileLogger2` |
| 1 | protocol version, 1 |
| 4 | int32 length N of the XML |
| N | the tree XML with `_uid`s and the node models (as Groot2's FULLTREE) |
| 8 | int64 wall-clock time of the start, microseconds since the epoch |
| 9 each | a transition: 6 bytes of microseconds since the start, uint16 node uid, uint8 new status |

The status callback only appends to a queue; a writer thread drains it every 10 ms
(as BT.CPP does), so ticking never waits for the disk. `close()` writes what is left.
`read_btlog(path)` parses a file back (for tests and tools).
"""
from __future__ import annotations

import struct
import threading
import time
from collections import deque
from pathlib import Path

from ..errors import BehaviorTreeError
from ..xml.writer import write_tree_to_xml
from .base import StatusChangeLogger

MAGIC = b"BTCPP4-FileLogger2"
PROTOCOL = 1
WRITE_PERIOD_S = 0.01


class FileLogger2(StatusChangeLogger):
    show_transition_to_idle = True

    def __init__(self, tree, path):
        path = Path(path)
        if path.suffix != ".btlog":
            raise BehaviorTreeError("FileLogger2: the file extension must be [.btlog]")
        try:
            self._file = open(path, "wb")
        except OSError as exc:
            raise BehaviorTreeError(f"FileLogger2: can't open {path}: {exc.strerror or exc}") from None
        xml = write_tree_to_xml(tree, add_metadata=True, add_builtin_models=True).encode()
        self._first_us = time.time_ns() // 1000
        self._file.write(MAGIC + bytes([PROTOCOL]) + struct.pack("<i", len(xml)) + xml
                         + struct.pack("<q", self._first_us))
        self._queue: deque = deque()
        self._write_lock = threading.Lock()
        self._wake = threading.Event()
        self._running = True
        super().__init__(tree)
        self._writer = threading.Thread(target=self._write_loop, name="btlog-writer", daemon=True)
        self._writer.start()

    def callback(self, timestamp_ns, node, previous, status) -> None:
        self._queue.append((timestamp_ns // 1000 - self._first_us, node.uid, status.value))

    def _drain(self) -> None:
        with self._write_lock:
            queue, chunks = self._queue, []
            while queue:
                usec, uid, status = queue.popleft()
                chunks.append((usec & 0xFFFFFFFFFFFF).to_bytes(6, "little") + struct.pack("<HB", uid, status))
            if chunks and not self._file.closed:
                self._file.write(b"".join(chunks))
                self._file.flush()

    def _write_loop(self) -> None:
        while self._running:
            self._wake.wait(WRITE_PERIOD_S)
            self._wake.clear()
            self._drain()

    def flush(self) -> None:
        self._drain()

    def close(self) -> None:
        if self._subscription is None:
            return
        super().close()
        self._running = False
        self._wake.set()
        self._writer.join()
        self._drain()
        self._file.close()


def read_btlog(path) -> tuple[str, int, list[tuple[int, int, int]]]:
    """(xml, start time in microseconds, [(usec since start, uid, status), ...])."""
    data = Path(path).read_bytes()
    if not data.startswith(MAGIC) or len(data) < len(MAGIC) + 13:
        raise BehaviorTreeError(f"{path}: not a BTCPP4-FileLogger2 file")
    offset = len(MAGIC) + 1
    (length,) = struct.unpack_from("<i", data, offset)
    offset += 4
    xml = data[offset:offset + length].decode()
    offset += length
    (start,) = struct.unpack_from("<q", data, offset)
    offset += 8
    records = []
    for position in range(offset, len(data) - 8, 9):
        usec = int.from_bytes(data[position:position + 6], "little")
        uid, status = struct.unpack_from("<HB", data, position + 6)
        records.append((usec, uid, status))
    return xml, start, records
