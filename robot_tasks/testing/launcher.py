"""Node processes for a test: one ROS domain per session, started and stopped with a leak check.

A test of real nodes needs three things the nodes themselves do not care about:

- **a domain of its own** (:class:`RosTestEnv`): a fresh ROS_DOMAIN_ID that no other process
  on this machine uses (:mod:`robot_tasks.ros.domains`), held for the whole session, a
  temporary ROS_LOG_DIR, and the loopback DDS environment (:mod:`robot_tasks.ros.dds`) that
  every process of the session gets;
- **processes it can read after the fact** (:class:`NodeProcess`, started by
  :class:`NodeLauncher`): each node a :class:`~robot_tasks.process.ManagedProcess` in its own
  process group with its output in a log file, whose tail a failing test shows;
- **proof that nothing is left behind** (:class:`StopReport`): every process is stopped with
  the one stop sequence (SIGINT, then SIGTERM, then SIGKILL), and then no process of its group
  may be alive and no Fast DDS shared-memory segment (``/dev/shm/fastdds_*``) it used may be
  left without an owner.

    env = RosTestEnv.create(tmp_dir)          # before any rclpy.init() in this process
    env.apply_to_current_process()
    launcher = NodeLauncher(env, tmp_dir / "logs")
    server = launcher.start_module("robot_tasks.nodes.arm_server", name="arm_server",
                                   params={"robot": "panda"})
    ...                                       # robot_tasks.testing.ros_test_node waits for it
    launcher.stop_all().raise_if_dirty()

No ROS import: the nodes are subprocesses.
"""
from __future__ import annotations

import re
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Sequence

from robot_tasks.process import ManagedProcess, child_environment, let_children_receive_sigint, ros_args
from robot_tasks.process.group import processes_in_group
from robot_tasks.ros.dds import configure_loopback_dds, loopback_dds_settings
from robot_tasks.ros.domains import pick_free_domain_id, reserve_domain
from robot_tasks.testing.procfs import fastdds_segments, fastdds_segments_in_use, fastdds_segments_of

REPO_ROOT = Path(__file__).resolve().parents[2]


class HarnessError(AssertionError):
    """A harness expectation failed (timeout, crashed node, leftovers).

    Subclasses AssertionError so pytest reports it as a test failure.
    """


@dataclass
class RosTestEnv:
    """Domain, log dir and environment shared by every process of one test session."""

    domain_id: int
    log_dir: Path
    settings: dict[str, str]

    @classmethod
    def create(cls, base_dir: Path, domain_id: int | None = None) -> "RosTestEnv":
        log_dir = Path(base_dir) / "ros_log"
        log_dir.mkdir(parents=True, exist_ok=True)
        domain = pick_free_domain_id() if domain_id is None else domain_id
        env = cls(domain, log_dir, loopback_dds_settings(domain, log_dir))
        # Held until release(): between two tests no node of ours runs in the domain, and
        # another session (a parallel test run) must not pick it then and answer our goals.
        env._holder = reserve_domain(domain)
        return env

    def release(self) -> None:
        """Give the domain back (the fixture that made this env calls it at its end)."""
        holder = getattr(self, "_holder", None)
        if holder is not None:
            holder.close()
            self._holder = None

    @classmethod
    def create_applied(cls, base_dir: Path, domain_id: int | None = None) -> "RosTestEnv":
        """:meth:`create`, then :meth:`apply_to_current_process` (what a pytest fixture wants)."""
        env = cls.create(base_dir, domain_id)
        env.apply_to_current_process()
        return env

    def apply_to_current_process(self) -> dict[str, str]:
        """Set the variables in os.environ (call before rclpy.init() in this process)."""
        return configure_loopback_dds(self.domain_id, self.log_dir)

    def subprocess_env(self, extra: dict[str, str] | None = None) -> dict[str, str]:
        """os.environ + loopback settings + unbuffered output + repo root on PYTHONPATH."""
        env = child_environment(self.settings)
        env["PYTHONUNBUFFERED"] = "1"
        env["RCUTILS_COLORIZED_OUTPUT"] = "0"
        env.update(extra or {})
        return env


@dataclass
class StopReport:
    """What tearing processes down left behind."""

    exits: dict[str, str] = field(default_factory=dict)  # name -> "SIGINT rc=0" etc.
    leftover_pids: dict[str, list[int]] = field(default_factory=dict)
    leftover_segments: set[str] = field(default_factory=set)

    @property
    def clean(self) -> bool:
        return not self.leftover_pids and not self.leftover_segments

    def raise_if_dirty(self) -> None:
        if not self.clean:
            raise HarnessError(
                f"teardown left processes {self.leftover_pids} and shared memory "
                f"{sorted(self.leftover_segments)} (exits: {self.exits})")


class NodeProcess:
    """A node running as a subprocess, in its own process group, output to a log file."""

    def __init__(self, name: str, argv: Sequence[str], env: dict[str, str], log_path: Path,
                 cwd: Path | None = None, may_exit: bool = False):
        self.name = name
        self.may_exit = may_exit  # True: exiting is not an error (a CLI run, a one-shot)
        self.argv = list(argv)
        self.log_path = log_path
        self.segments: set[str] = set()  # Fast DDS shm files seen mapped by it
        self.exit_how = ""
        self.process = ManagedProcess(self.argv, env=env, cwd=cwd or REPO_ROOT, log_path=log_path)

    @property
    def popen(self):
        """The subprocess.Popen (wait, send_signal, returncode)."""
        return self.process.popen

    @property
    def pid(self) -> int:
        return self.process.pid

    def is_running(self) -> bool:
        return self.process.is_running()

    def note_segments(self) -> None:
        """Remember the shm files it maps now (checked for removal after stop)."""
        if self.is_running():
            self.segments |= fastdds_segments_of(self.pid)

    def tail(self, lines: int = 30) -> str:
        try:
            text = self.log_path.read_text(errors="replace")
        except FileNotFoundError:
            return "(no log)"
        return "\n".join(text.splitlines()[-lines:]) or "(empty log)"

    def describe(self, lines: int = 30) -> str:
        state = "running" if self.is_running() else f"exited rc={self.process.returncode}"
        return (f"--- {self.name} (pid {self.pid}, {state}): {' '.join(self.argv)}\n"
                f"--- log {self.log_path}, last lines:\n{self.tail(lines)}")

    def stop(self, sigint_s: float = 5.0, sigterm_s: float = 2.0, sigkill_s: float = 2.0) -> str:
        """Stop the whole process group: SIGINT, then SIGTERM, then SIGKILL.

        Returns how it ended, e.g. "SIGINT rc=0" (graceful) or "SIGKILL rc=-9"; for a node
        that had ended already, what the test said of it (NodeStack.kill) or "exited by itself".
        """
        self.note_segments()
        was_running = self.is_running()
        how = self.process.stop(sigint_s, sigterm_s, sigkill_s)
        self.exit_how = how if was_running else (self.exit_how or how)
        return self.exit_how


class NodeLauncher:
    """Starts node subprocesses for one test and stops them all at the end."""

    def __init__(self, env: RosTestEnv, log_dir: Path):
        self.env = env
        self.log_dir = Path(log_dir)
        self.processes: list[NodeProcess] = []
        self.watched_segments: set[str] = set()  # e.g. a closed RosTestNode's, checked in stop_all
        let_children_receive_sigint()

    def start(self, argv: Sequence[str], name: str | None = None,
              extra_env: dict[str, str] | None = None, may_exit: bool = False) -> NodeProcess:
        """Start any command with the session's ROS environment.

        may_exit=False (a node): its death while a wait is running fails the wait.
        """
        name = name or Path(argv[0]).name
        log = self.log_dir / f"{len(self.processes):02d}_{re.sub(r'[^A-Za-z0-9_.-]', '_', name)}.log"
        proc = NodeProcess(name, argv, self.env.subprocess_env(extra_env), log, may_exit=may_exit)
        self.processes.append(proc)
        return proc

    def start_module(self, module: str, name: str | None = None, params: dict | None = None,
                     remaps: dict[str, str] | None = None, args: Sequence[str] = (),
                     extra_env: dict[str, str] | None = None) -> NodeProcess:
        """``python -m module [args] --ros-args -r __node:=name -p k:=v -r from:=to``."""
        argv = [sys.executable, "-m", module, *args]
        return self.start(argv + ros_args(name, params, remaps), name or module.rsplit(".", 1)[-1],
                          extra_env)

    def start_script(self, script: Path | str, name: str | None = None, params: dict | None = None,
                     remaps: dict[str, str] | None = None, args: Sequence[str] = (),
                     extra_env: dict[str, str] | None = None) -> NodeProcess:
        """``python script [args] --ros-args ...`` (test scripts under test/)."""
        argv = [sys.executable, str(script), *args]
        return self.start(argv + ros_args(name, params, remaps), name or Path(script).stem, extra_env)

    def describe_all(self, lines: int = 30) -> str:
        return "\n".join(p.describe(lines) for p in self.processes) or "(no processes launched)"

    def check_alive(self, what: str) -> None:
        """Raise if a launched process has died (it would make any wait time out)."""
        for proc in self.processes:
            if not proc.is_running() and not proc.exit_how and not proc.may_exit:
                raise HarnessError(f"{proc.name} exited (rc={proc.popen.returncode}) while "
                                   f"waiting for {what}\n{proc.describe()}")

    def stop_all(self) -> StopReport:
        """Stop every process (in reverse start order); report leftovers."""
        report = StopReport()
        for proc in reversed(self.processes):
            report.exits[proc.name] = proc.stop()
        deadline = time.monotonic() + 2.0
        for proc in self.processes:
            while (left := processes_in_group(proc.pid)) and time.monotonic() < deadline:
                time.sleep(0.05)
            if left:
                report.leftover_pids[proc.name] = left
        # Leaked = seen in use by our processes, still in /dev/shm, and no live process
        # holds it any more. (A segment of a node that outlives this launcher, e.g. a
        # session-wide sim, is still held by that node, so it is not counted.)
        candidates = set(self.watched_segments)
        for proc in self.processes:
            candidates |= proc.segments
        candidates &= fastdds_segments()
        if candidates:
            report.leftover_segments = candidates - fastdds_segments_in_use()
        return report

    def stop_and_check(self, require_sigint_exit: bool = False) -> StopReport:
        """Fixture teardown: :meth:`stop_all`, print the exits and the tail of every log
        (pytest shows them when the test failed), then raise HarnessError if a process or
        a shm segment was left behind, or, with `require_sigint_exit`, if a node did not
        stop with rc 0 on SIGINT (its shutdown path is under test)."""
        report = self.stop_all()
        if self.processes:
            print(f"ROS_DOMAIN_ID={self.env.domain_id}; exits: {report.exits}")
            print(self.describe_all(lines=40))
        report.raise_if_dirty()
        if require_sigint_exit:
            unclean = {name: how for name, how in report.exits.items() if how != "SIGINT rc=0"}
            if unclean:
                raise HarnessError(f"nodes did not stop cleanly on SIGINT: {unclean}")
        return report
