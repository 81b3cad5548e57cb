"""A bringup YAML's node set under the test harness, where each node can be killed and restarted.

`robot-tasks bringup config/franka_stacking.yaml` supervises its nodes itself; a fault
test needs the opposite: to kill one node at a moment it picks (as a crash would: SIGKILL,
no clean-up), to watch what the others do, and to start that node again with the same
command line. :class:`NodeStack` starts the nodes of the file exactly as bringup does
(:func:`robot_tasks.process.node_argv`, the file's parameters plus a few overrides written
to a copy), each one a :class:`~robot_tasks.testing.launcher.NodeProcess` of the test's
:class:`~robot_tasks.testing.launcher.NodeLauncher` (own process group, log file, leak
check at the end).

    stack = NodeStack(launcher, REPO / "config" / "franka_stacking.yaml", tmp_dir,
                      overrides={"sim": {"real_time_factor": 0.0}}, skip=("state_publisher",))
    stack.start_all()
    stack.kill("arm_server")        # SIGKILL to its process group; its log is kept
    stack.start("arm_server")       # the same argv, a new process and log

A killed node is marked as expected to be gone, so the harness's waits (which fail as soon
as a launched node dies) keep working. No ROS import: nodes are subprocesses.
"""
from __future__ import annotations

import signal
import time
from collections.abc import Iterable
from pathlib import Path

from robot_tasks.process import load_plan, node_argv, with_overrides
from robot_tasks.testing.launcher import HarnessError, NodeLauncher, NodeProcess


class NodeStack:
    """The nodes of one bringup file, by name (see the module docstring)."""

    def __init__(self, launcher: NodeLauncher, config: Path, work_dir: Path,
                 overrides: dict[str, dict] | None = None, skip: Iterable[str] = ()):
        plan = load_plan(config)
        params_file = with_overrides(plan, overrides or {}, Path(work_dir) / "params")
        skipped = set(skip)
        self.launcher = launcher
        self.argv = {spec.name: node_argv(spec, plan, params_file) for spec in plan.nodes
                     if spec.name not in skipped}
        self.processes: dict[str, NodeProcess] = {}
        self.kills: dict[str, int] = {name: 0 for name in self.argv}

    @property
    def names(self) -> list[str]:
        return list(self.argv)

    def start_all(self) -> None:
        for name in self.argv:
            self.start(name)

    def start(self, name: str) -> NodeProcess:
        """Start node `name` (again): the same command line, a new log file."""
        if name not in self.argv:
            raise HarnessError(f"no node '{name}' in this stack (nodes: {', '.join(self.argv)})")
        old = self.processes.get(name)
        if old is not None and old.is_running():
            raise HarnessError(f"{name} is still running (pid {old.pid}); kill it first")
        proc = self.launcher.start(self.argv[name], name=name)
        self.processes[name] = proc
        return proc

    def kill(self, name: str, sig: int = signal.SIGKILL, timeout: float = 5.0) -> float:
        """Send `sig` to node `name`'s process group (a crash: no clean-up); wait until it
        is gone; return the monotonic time the signal was sent."""
        proc = self.processes[name]
        proc.exit_how = f"killed by the test ({signal.Signals(sig).name})"  # waits must not fail on it
        sent = time.monotonic()
        proc.process.signal(sig)
        proc.process.wait(timeout=timeout)
        self.kills[name] += 1
        return sent

    def pids(self) -> dict[str, int]:
        """Live nodes: name -> pid."""
        return {name: proc.pid for name, proc in self.processes.items() if proc.is_running()}
