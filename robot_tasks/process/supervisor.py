"""Run the nodes of a bringup plan and supervise them, as `ros2 launch` does.

:class:`Supervisor` starts every node of a :class:`~robot_tasks.process.plan.BringupPlan`
in order, each a :class:`~robot_tasks.process.managed.ManagedProcess` in its own process
group (so a Ctrl-C in the terminal reaches only the supervisor, which then stops the nodes
itself) that dies with the supervisor. Each line a node prints is copied to one output,
prefixed with the node's name:

    [sim            ] sim: scene franka_stacking ready

While it waits (:meth:`Supervisor.wait`), a node with `respawn` is started again
`respawn_delay` s after it exits; the exit of a `required` node ends the wait (the caller
then stops all the others); any other node's exit is reported and the rest go on; when
every node has ended, so does the wait. :meth:`Supervisor.stop_all` stops the nodes last
started first, each with the stop sequence (SIGINT, then SIGTERM, then SIGKILL).
No ROS import here: the nodes are separate processes that get their DDS environment from
:func:`robot_tasks.process.environment.child_environment`.
"""
from __future__ import annotations

import sys
import threading
import time
from pathlib import Path
from typing import TextIO

from robot_tasks.process.command_line import node_argv
from robot_tasks.process.managed import ManagedProcess
from robot_tasks.process.plan import BringupPlan, NodeSpec


class Supervisor:
    """Runs the nodes as child processes, each in its own process group (so Ctrl-C in the
    terminal reaches only us, and we stop them in reverse start order)."""

    def __init__(self, plan: BringupPlan, params_file: Path, env: dict[str, str], out: TextIO = sys.stdout,
                 python: str = sys.executable):
        self.plan, self.params_file, self.env, self.out, self.python = plan, params_file, env, out, python
        self.processes: dict[str, ManagedProcess] = {}
        self._lock = threading.Lock()
        self.width = max(len(s.name) for s in plan.nodes)

    def say(self, name: str, line: str) -> None:
        with self._lock:
            self.out.write(f"[{name:<{self.width}}] {line}\n")
            self.out.flush()

    def start(self) -> None:
        """Start every node, in the plan's order."""
        for spec in self.plan.nodes:
            self.processes[spec.name] = self._spawn(spec)

    def _spawn(self, spec: NodeSpec) -> ManagedProcess:
        return ManagedProcess(node_argv(spec, self.plan, self.params_file, self.python), env=self.env,
                              on_line=lambda line, name=spec.name: self.say(name, line), die_with_parent=True)

    def first_exit(self) -> tuple[str, int] | None:
        """(name, exit code) of a node that has ended, or None while all run."""
        for name, process in self.processes.items():
            code = process.poll()
            if code is not None:
                return name, code
        return None

    def wait(self, stop: threading.Event, poll_s: float = 0.2) -> tuple[str, int] | None:
        """Supervise until `stop` is set (-> None), a required node ends (-> its name and
        code) or every node has ended (-> the last one's name and code). A node with
        `respawn` is started again `respawn_delay` s after it ends; another node's exit is
        reported once and the others go on."""
        specs = {s.name: s for s in self.plan.nodes}
        restart_at: dict[str, float] = {}
        reported: set[str] = set()
        while not stop.wait(poll_s):
            now = time.monotonic()
            for name, process in list(self.processes.items()):
                code = process.poll()
                spec = specs[name]
                if code is None or name in reported:
                    continue
                if spec.required:
                    return name, code
                if spec.respawn:
                    if name not in restart_at:
                        restart_at[name] = now + spec.respawn_delay
                        self.say(name, f"bringup: exited with code {code}; respawning in {spec.respawn_delay:g} s")
                    elif now >= restart_at[name]:
                        del restart_at[name]
                        process.stop()                  # its output is all copied; leftovers killed
                        self.processes[name] = self._spawn(spec)
                        self.say(name, "bringup: respawned")
                    continue
                reported.add(name)
                self.say(name, f"bringup: exited with code {code} (not required: the other nodes go on)")
            if len(reported) == len(self.processes):
                return name, self.processes[name].returncode
        return None

    def stop_all(self, sigint_s: float = 8.0, sigterm_s: float = 3.0) -> dict[str, int]:
        """Stop every node, last started first: SIGINT, then SIGTERM, then SIGKILL.
        Returns each node's exit code (None for one that would not exit)."""
        for spec in reversed(self.plan.nodes):
            process = self.processes.get(spec.name)
            if process is not None:
                process.stop(sigint_s, sigterm_s, 2.0, on_escalate=lambda sig, name=spec.name: self.say(
                    name, f"bringup: still running, sending {sig}"))
        return {name: p.returncode for name, p in self.processes.items()}
