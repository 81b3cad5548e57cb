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
import time
from pathlib import Path

from ..errors import BehaviorTreeError
from ..xml.writer import write_tree_to_xml
from .base import QueuedFileLogger

MAGIC = b"BTCPP4-FileLogger2"
PROTOCOL = 1


class FileLogger2(QueuedFileLogger):
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
        self.start_writer(tree, "btlog-writer")

    def callback(self, timestamp_ns, node, previous, status) -> None:
        self._queue.append((timestamp_ns // 1000 - self._first_us, node.uid, status.value))

    def write_items(self, items: list) -> None:
        self._file.write(b"".join((usec & 0xFFFFFFFFFFFF).to_bytes(6, "little") + struct.pack("<HB", uid, status)
                                  for usec, uid, status in items))


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
