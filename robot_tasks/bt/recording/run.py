"""FileRecording: record one run of a tree into a file, the way the tree executor does.

    recording = FileRecording(tree, "runs/x/Main.replay.jsonl", tree_file="trees/main.xml")
    for tick in range(1, n + 1):
        recording.begin_tick(tick, clock_seconds)
        status = tree.tick_exactly_once()
    recording.close()

Create it after the payload is on the blackboard and before the first tick: the header
keeps the blackboard as it is then, and the replay starts from it.
"""
from __future__ import annotations

import time
from pathlib import Path
from typing import Any, Callable

from ..blackboard import EMPTY
from ..tree import Tree
from .file import RecordingWriter
from .header import make_header
from .paths import board_prefixes, entry_names, node_paths
from .recorder import TreeRecorder


def initial_blackboard(tree: Tree) -> dict[str, Any]:
    """{entry name: value} of every entry of the tree that holds a value."""
    boards = board_prefixes(tree, node_paths(tree))
    return {name: entry.value for entry, name in entry_names(boards) if entry.value is not EMPTY}


class FileRecording:
    """A TreeRecorder writing to a RecordingWriter; `header` fields go to `make_header`."""

    def __init__(self, tree: Tree, path: str | Path, on_problem: Callable[[str], None] = print, **header: Any):
        self.path = Path(path)
        self.writer = RecordingWriter(self.path, make_header(tree, initial_blackboard(tree), **header))
        self.recorder = TreeRecorder(tree, self.writer, on_problem)
        self._cpu_start = time.process_time()

    def begin_tick(self, tick: int, t: float | None = None) -> None:
        self.recorder.begin_tick(tick, t)

    def close(self) -> None:
        """The end line (with the process CPU seconds the run took), then the file is closed."""
        self.recorder.close(process_cpu_s=round(time.process_time() - self._cpu_start, 3))
        self.writer.close()
