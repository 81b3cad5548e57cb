"""Run monitors: what watches one run of a tree, opened when it starts, closed when it ends.

A tree executor can attach observers to every run: Groot2's live view (a
`Groot2Publisher` serving the tree on a ZMQ port while it runs, as BehaviorTree.ROS2's
tree execution server opens one per goal), a FileLogger2 `.btlog` that Groot2 can
replay afterwards, and a recording of every leaf's results and writes that
`robot-tasks replay` re-runs offline (`robot_tasks.bt.recording`). Each monitor here is
a factory `monitor(tree, tree_id, info) -> closable` (`info`: the run's `RunInfo`);
the executor calls every factory when a run starts and `close()`s what they returned
when the run ends (success, failure, cancel, preemption), so the next run can take the
same port. A monitor with a `begin_tick(tick, t)` method is told when each tick starts
(`RunMonitors.begin_tick`). A monitor that cannot open (the port is taken by another
executor) is reported through `on_problem` and the run goes on without it: watching is
never a reason for a tree not to run.
"""
from __future__ import annotations

import re
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

from robot_tasks.bt import BehaviorTreeError


@dataclass(frozen=True)
class RunInfo:
    """What started a run: the goal's target and payload, and the files the tree came from."""

    target: str = ""
    tree_file: str = ""
    subtree_files: dict = field(default_factory=dict)   # tree ID -> file, for subtrees defined elsewhere
    payload: dict = field(default_factory=dict)


Monitor = Callable[[object, str, RunInfo], object]


def _file_stem(tree_id: str) -> str:
    safe_id = re.sub(r"[^A-Za-z0-9_.-]", "_", tree_id) or "tree"
    return f"{safe_id}_{time.strftime('%Y%m%dT%H%M%SZ', time.gmtime())}"


def groot2_monitor(port: int, address: str = "127.0.0.1",
                   on_problem: Callable[[str], None] = print) -> Monitor:
    """A Groot2Publisher on `address:port` (REP) and `port + 1` (PUB) for each run."""
    def open_publisher(tree, tree_id: str, info: RunInfo | None = None):
        from robot_tasks.bt.groot2 import Groot2Publisher

        try:
            return Groot2Publisher(tree, server_port=port, bind_address=address)
        except BehaviorTreeError as exc:
            on_problem(f"Groot2 monitoring of '{tree_id}' is off for this run: {exc}")
            return None
    return open_publisher


def watch_hint(address: str, port: int) -> str:
    """How a user watches a tree served on Groot2 port `address:port`: Groot2 itself, or the
    browser monitor (`robot-tasks monitor`, robot_tasks/monitor), which prints its page's URL."""
    return (f"Groot2: connect to {address}:{port} while a tree runs; in a browser: "
            f"robot-tasks monitor {address}:{port}")


def btlog_monitor(folder: str | Path, on_problem: Callable[[str], None] = print) -> Monitor:
    """A FileLogger2 writing `<folder>/<tree_id>_<UTC time>.btlog` for each run."""
    folder = Path(folder)

    def open_logger(tree, tree_id: str, info: RunInfo | None = None):
        from robot_tasks.bt.loggers import FileLogger2

        path = folder / f"{_file_stem(tree_id)}.btlog"
        try:
            folder.mkdir(parents=True, exist_ok=True)
            return FileLogger2(tree, path)
        except (OSError, BehaviorTreeError) as exc:
            on_problem(f"no .btlog for '{tree_id}' ({path}): {exc}")
            return None
    return open_logger


def recording_monitor(folder: str | Path, plugins: list[str] | tuple = (), clock: str = "",
                      on_problem: Callable[[str], None] = print) -> Monitor:
    """A recording `<folder>/<tree_id>_<UTC time>.replay.jsonl` of each run: per tick, what
    every leaf returned and wrote (robot_tasks.bt.recording; `robot-tasks replay` reads it).
    `plugins` and `clock` go to its header."""
    folder = Path(folder)

    def open_recording(tree, tree_id: str, info: RunInfo | None = None):
        from robot_tasks.bt.recording import FileRecording

        info = info or RunInfo()
        stem = _file_stem(tree_id)
        path, number = folder / f"{stem}.replay.jsonl", 1
        while path.exists():   # two runs in one second (a preempted goal): keep both
            number += 1
            path = folder / f"{stem}_{number}.replay.jsonl"
        try:
            return FileRecording(tree, path, on_problem, target=info.target, tree_file=info.tree_file or None,
                                 subtree_files=info.subtree_files, payload=info.payload, plugins=list(plugins),
                                 clock=clock)
        except Exception as exc:  # noqa: BLE001 - a recording that cannot start never stops the run
            on_problem(f"no recording for '{tree_id}' ({path}): {type(exc).__name__}: {exc}")
            return None
    return open_recording


class RunMonitors:
    """The monitors of the current run: `open(tree, tree_id, info)` at its start,
    `begin_tick(tick, t)` before each tick, `close()` at its end."""

    def __init__(self, factories: list[Monitor]):
        self.factories = list(factories)
        self._open: list = []
        self._tickers: list = []

    def open(self, tree, tree_id: str, info: RunInfo | None = None) -> None:
        self.close()
        self._open = [m for m in (factory(tree, tree_id, info or RunInfo()) for factory in self.factories)
                      if m is not None]
        self._tickers = [m for m in self._open if hasattr(m, "begin_tick")]

    @property
    def ticking(self) -> bool:
        """True when an open monitor wants `begin_tick` (so callers read the clock only then)."""
        return bool(self._tickers)

    def begin_tick(self, tick: int, t: Any = None) -> None:
        for monitor in self._tickers:
            monitor.begin_tick(tick, t)

    def close(self) -> None:
        opened, self._open, self._tickers = self._open, [], []
        for monitor in reversed(opened):
            monitor.close()
