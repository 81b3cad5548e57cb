"""MinitraceLogger: a Chrome trace (chrome://tracing, ui.perfetto.dev) of a tree's run.

Every node becomes a bar on a timeline: it starts when the node leaves IDLE and ends
when it finishes (SUCCESS/FAILURE) or is halted (RUNNING back to IDLE, marked
`"halted": true`). A node that finishes within its first tick is a bar of zero
length. Nesting shows the tree: a parent's bar encloses its children's. Events use
Chrome's trace-event JSON ("B"/"E" phases, microsecond timestamps, the node kind as
category, the full path in the arguments), written as a JSON array: the file is
readable even if the process dies before `close()` writes the closing bracket.
"""
from __future__ import annotations

import json
import os

from ..status import FAILURE, IDLE, RUNNING, SUCCESS
from .base import QueuedFileLogger


class MinitraceLogger(QueuedFileLogger):
    show_transition_to_idle = True
    write_period_s = 0.05

    def __init__(self, tree, path):
        self._file = open(path, "w", encoding="utf-8")
        self._file.write("[")
        self._first = True
        self._open_spans: set[int] = set()
        self._pid = os.getpid()
        self._parts: dict[int, tuple[str, str]] = {}
        self.start_writer(tree, "minitrace-writer")

    def callback(self, timestamp_ns, node, previous, status) -> None:
        uid = node.uid
        spans = self._open_spans
        ts = timestamp_ns / 1000
        if uid not in spans and status is not IDLE:
            spans.add(uid)
            self._queue.append(("B", ts, node, None))
        if uid in spans and (status is SUCCESS or status is FAILURE or (status is IDLE and previous is RUNNING)):
            spans.discard(uid)
            self._queue.append(("E", ts, node, status))

    def _event(self, phase, ts, node, status) -> str:
        parts = self._parts.get(node.uid)
        if parts is None:  # the JSON of what does not change, made once per node
            head = f'{{"name": {json.dumps(node.name)}, "cat": "{node.node_type.value}", '
            parts = (head, f', "pid": {self._pid}, "tid": 1, "args": {{"path": {json.dumps(node.full_path)}, '
                           f'"uid": {node.uid}}}}}')
            self._parts[node.uid] = parts
        head, begin_tail = parts
        if phase == "B":
            return f'{head}"ph": "B", "ts": {ts}{begin_tail}'
        outcome = "HALTED" if status is IDLE else status.name
        return f'{head}"ph": "E", "ts": {ts}, "pid": {self._pid}, "tid": 1, "args": {{"status": "{outcome}"}}}}'

    def write_items(self, items: list) -> None:
        self._file.write(("" if self._first else ",\n") + ",\n".join(self._event(*item) for item in items))
        self._first = False

    def finish(self) -> None:
        self._file.write("]\n")


