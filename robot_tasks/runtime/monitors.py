"""Run monitors: what watches one run of a tree, opened when it starts, closed when it ends.

A tree executor can attach observers to every run: Groot2's live view (a
`Groot2Publisher` serving the tree on a ZMQ port while it runs, as BehaviorTree.ROS2's
tree execution server opens one per goal) and a FileLogger2 `.btlog` that Groot2 can
replay afterwards. Each monitor here is a factory `monitor(tree, tree_id) -> closable`;
the executor calls every factory when a run starts and `close()`s what they returned
when the run ends (success, failure, cancel, preemption), so the next run can take the
same port. A monitor that cannot open (the port is taken by another executor) is
reported through `on_problem` and the run goes on without it: watching is never a
reason for a tree not to run.
"""
from __future__ import annotations

import re
import time
from pathlib import Path
from typing import Callable

from robot_tasks.bt import BehaviorTreeError

Monitor = Callable[[object, str], object]


def groot2_monitor(port: int, address: str = "127.0.0.1",
                   on_problem: Callable[[str], None] = print) -> Monitor:
    """A Groot2Publisher on `address:port` (REP) and `port + 1` (PUB) for each run."""
    def open_publisher(tree, tree_id: str):
        from robot_tasks.bt.groot2 import Groot2Publisher

        try:
            return Groot2Publisher(tree, server_port=port, bind_address=address)
        except BehaviorTreeError as exc:
            on_problem(f"Groot2 monitoring of '{tree_id}' is off for this run: {exc}")
            return None
    return open_publisher


def btlog_monitor(folder: str | Path, on_problem: Callable[[str], None] = print) -> Monitor:
    """A FileLogger2 writing `<folder>/<tree_id>_<UTC time>.btlog` for each run."""
    folder = Path(folder)

    def open_logger(tree, tree_id: str):
        from robot_tasks.bt.loggers import FileLogger2

        safe_id = re.sub(r"[^A-Za-z0-9_.-]", "_", tree_id) or "tree"
        path = folder / f"{safe_id}_{time.strftime('%Y%m%dT%H%M%SZ', time.gmtime())}.btlog"
        try:
            folder.mkdir(parents=True, exist_ok=True)
            return FileLogger2(tree, path)
        except (OSError, BehaviorTreeError) as exc:
            on_problem(f"no .btlog for '{tree_id}' ({path}): {exc}")
            return None
    return open_logger


class RunMonitors:
    """The monitors of the current run: `open(tree, tree_id)` at its start, `close()` at its end."""

    def __init__(self, factories: list[Monitor]):
        self.factories = list(factories)
        self._open: list = []

    def open(self, tree, tree_id: str) -> None:
        self.close()
        self._open = [m for m in (factory(tree, tree_id) for factory in self.factories) if m is not None]

    def close(self) -> None:
        opened, self._open = self._open, []
        for monitor in reversed(opened):
            monitor.close()
