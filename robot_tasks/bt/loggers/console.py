"""StdCoutLogger: one line per status change, for a human watching a terminal.

`[1733086000.123]: approach                  RUNNING -> SUCCESS`: the wall-clock
time in seconds, the node name padded to 25 columns, the old and the new status,
coloured when the stream is a terminal (as BT.CPP's StdCoutLogger does). Writes go
to `stream` (sys.stdout by default) and are not buffered: the cost is the print.
"""
from __future__ import annotations

import sys

from .base import StatusChangeLogger

_COLOURS = {"IDLE": "\033[36m", "RUNNING": "\033[33m", "SUCCESS": "\033[32m", "FAILURE": "\033[31m",
            "SKIPPED": "\033[34m"}
_RESET = "\033[0m"


class StdCoutLogger(StatusChangeLogger):
    def __init__(self, tree, stream=None, colour: bool | None = None):
        self.stream = stream if stream is not None else sys.stdout
        self.colour = colour if colour is not None else bool(getattr(self.stream, "isatty", lambda: False)())
        super().__init__(tree)

    def _name(self, status) -> str:
        name = status.name
        return f"{_COLOURS[name]}{name}{_RESET}" if self.colour else name

    def callback(self, timestamp_ns, node, previous, status) -> None:
        self.stream.write(f"[{timestamp_ns / 1e9:.3f}]: {node.name:<25} {self._name(previous)} -> "
                          f"{self._name(status)}\n")

    def flush(self) -> None:
        self.stream.flush()
