"""Test harness for real ROS 2 processes over loopback DDS.

Three pieces, used by the pytest fixtures in ``test/conftest.py``:

:class:`RosTestEnv`
    one per test session: a fresh ROS_DOMAIN_ID, a temp ROS_LOG_DIR and the
    environment (loopback DDS, see :mod:`robot_tasks.ros.dds`) that every
    process of the session gets.
:class:`NodeLauncher` / :class:`NodeProcess`
    start nodes as real subprocesses (``python -m robot_tasks.nodes.X --ros-args ...``
    or any argv), send their output to a log file, and stop them with SIGINT,
    then SIGTERM, then SIGKILL, checking that no process and no Fast DDS shared
    memory segment (``/dev/shm/fastdds_*``) is left behind.
:class:`RosTestNode`
    an rclpy node inside the test, in its own Context, spun by a
    SingleThreadedExecutor in a thread, with helpers that wait until other nodes,
    action servers, topics and services are discovered.

Waiting always has a timeout and fails with an error that says what was awaited
and shows the tail of every launched process's log (a crashed node is the usual
cause). Imports rclpy lazily, so ``import robot_tasks.testing.harness`` is cheap.

Example::

    env = RosTestEnv.create(tmp_dir)          # before any rclpy.init() in this process
    env.apply_to_current_process()
    launcher = NodeLauncher(env, tmp_dir / "logs")
    server = launcher.start_module("robot_tasks.nodes.arm_server", name="arm_server",
                                   params={"robot": "panda"})
    with RosTestNode("probe", env, launcher=launcher) as probe:
        probe.wait_for_node("arm_server")
        ...
    launcher.stop_all().raise_if_dirty()
"""
from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Iterable, Sequence

from robot_tasks.ros.dds import (
    configure_loopback_dds,
    loopback_dds_settings,
    loopback_environment,
)
from robot_tasks.ros.domains import pick_free_domain_id, reserve_domain
from robot_tasks.testing.procfs import (
    InetSocket,
    fastdds_segments,
    fastdds_segments_in_use,
    fastdds_segments_of,
    inet_sockets_of,
    processes_in_group,
)

__all__ = [
    "HarnessError", "RosTestEnv", "NodeProcess", "NodeLauncher", "StopReport", "RosTestNode",
    "ActionClients", "ros_args", "safe_node_name", "wait_until",
    # /proc helpers, re-exported so tests need one import
    "InetSocket", "fastdds_segments", "fastdds_segments_in_use", "fastdds_segments_of",
    "inet_sockets_of", "processes_in_group",
]

REPO_ROOT = Path(__file__).resolve().parents[2]
POLL_S = 0.02  # graph polling period: small next to discovery (~0.1 s), cheap on CPU
MATCH_SETTLE_S = 0.5  # s a new action client waits for the server to discover it (wait_for_action_server)


class HarnessError(AssertionError):
    """A harness expectation failed (timeout, crashed node, leftovers).

    Subclasses AssertionError so pytest reports it as a test failure.
    """


# --------------------------------------------------------------------------- env
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
        env = loopback_environment(self.settings)
        env["PYTHONUNBUFFERED"] = "1"
        env["RCUTILS_COLORIZED_OUTPUT"] = "0"
        path = [str(REPO_ROOT)] + [p for p in env.get("PYTHONPATH", "").split(os.pathsep) if p]
        env["PYTHONPATH"] = os.pathsep.join(dict.fromkeys(path))
        env.update(extra or {})
        return env


# ------------------------------------------------------------------- processes
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
        log_path.parent.mkdir(parents=True, exist_ok=True)
        self._log = open(log_path, "wb")
        self.popen = subprocess.Popen(
            self.argv, env=env, cwd=str(cwd or REPO_ROOT), stdin=subprocess.DEVNULL,
            stdout=self._log, stderr=subprocess.STDOUT, start_new_session=True)

    @property
    def pid(self) -> int:
        return self.popen.pid

    def is_running(self) -> bool:
        return self.popen.poll() is None

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
        state = "running" if self.is_running() else f"exited rc={self.popen.returncode}"
        return (f"--- {self.name} (pid {self.pid}, {state}): {' '.join(self.argv)}\n"
                f"--- log {self.log_path}, last lines:\n{self.tail(lines)}")

    def stop(self, sigint_s: float = 5.0, sigterm_s: float = 2.0, sigkill_s: float = 2.0) -> str:
        """Stop the whole process group: SIGINT, then SIGTERM, then SIGKILL.

        Returns how it ended, e.g. "SIGINT rc=0" (graceful) or "SIGKILL rc=-9".
        """
        self.note_segments()
        if not self.is_running():
            self.exit_how = self.exit_how or f"exited by itself rc={self.popen.returncode}"
        else:
            for sig, wait_s in ((signal.SIGINT, sigint_s), (signal.SIGTERM, sigterm_s),
                                (signal.SIGKILL, sigkill_s)):
                try:
                    os.killpg(self.pid, sig)
                except ProcessLookupError:
                    pass
                try:
                    rc = self.popen.wait(timeout=wait_s)
                    self.exit_how = f"{sig.name} rc={rc}"
                    break
                except subprocess.TimeoutExpired:
                    continue
            else:
                self.exit_how = "did not exit after SIGKILL"
        # children that outlived the leader get the same treatment, bounded
        stragglers = processes_in_group(self.pid)
        for pid in stragglers:
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
        self._log.close()
        return self.exit_how


class NodeLauncher:
    """Starts node subprocesses for one test and stops them all at the end."""

    def __init__(self, env: RosTestEnv, log_dir: Path):
        self.env = env
        self.log_dir = Path(log_dir)
        self.processes: list[NodeProcess] = []
        self.watched_segments: set[str] = set()  # e.g. a closed RosTestNode's, checked in stop_all
        _let_children_receive_sigint()

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


def _let_children_receive_sigint() -> None:
    """Children inherit an *ignored* SIGINT (e.g. pytest started in the background by a
    non-interactive shell); they would then only stop on SIGTERM. A handled SIGINT is
    reset to the default on exec, so install Python's own handler in that case."""
    if (threading.current_thread() is threading.main_thread()
            and signal.getsignal(signal.SIGINT) is signal.SIG_IGN):
        signal.signal(signal.SIGINT, signal.default_int_handler)


def ros_args(name: str | None = None, params: dict | None = None,
             remaps: dict[str, str] | None = None) -> list[str]:
    """Build ``--ros-args`` for a node: its name, ``-p key:=value`` and ``-r from:=to``."""
    out: list[str] = []
    if name:
        out += ["-r", f"__node:={name}"]
    for key, value in (remaps or {}).items():
        out += ["-r", f"{key}:={value}"]
    for key, value in (params or {}).items():
        out += ["-p", f"{key}:={_param_text(value)}"]
    return ["--ros-args", *out] if out else []


def _param_text(value) -> str:
    """A parameter value as rcl parses it from ``-p`` (YAML)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(_param_text(v) for v in value) + "]"
    if isinstance(value, str):
        return "'" + value.replace("'", "''") + "'"  # YAML single-quoted: stays a string
    return repr(value)


# -------------------------------------------------------------- in-test node
def safe_node_name(prefix: str, name: str) -> str:
    """A valid ROS node name (60 chars at most) from a prefix and a pytest test name:
    ("test", "test_x[a-1]") -> "test_test_x_a_1_"."""
    return re.sub(r"\W", "_", f"{prefix}_{name}")[:60]


def _normalize_node_name(name: str) -> tuple[str, str]:
    """"arm" -> ("/", "arm"); "/robot1/arm" -> ("/robot1", "arm")."""
    name = "/" + name.strip("/")
    ns, _, base = name.rpartition("/")
    return ns or "/", base


class RosTestNode:
    """An rclpy node for use inside a test: a RosClient (robot_tasks.ros.client) spun in a
    background thread, with the waiting helpers a test needs.

    The RosClient has its own rclpy Context (so tests never share or leak the global
    one) and a SingleThreadedExecutor. Use this as a context manager or call
    :meth:`close`, which also records the Fast DDS shared memory the process mapped,
    so the launcher can check that nothing is left behind.

    Callbacks run on the executor thread; the test thread waits with
    :meth:`wait_for` / :meth:`wait_future`, never by spinning itself.
    """

    def __init__(self, name: str, env: RosTestEnv, launcher: NodeLauncher | None = None):
        from robot_tasks.ros.client import RosClient

        self.env = env
        self.launcher = launcher
        # the variables are read when the participant is created, i.e. in RosClient
        env.apply_to_current_process()
        self.client = RosClient(name, configure_dds=False, domain_id=env.domain_id)  # Ctrl-C stays pytest's
        self.context, self.node, self.executor = self.client.context, self.client.node, self.client.executor
        self._closed = False
        self.segments: set[str] = set()  # Fast DDS shm files mapped by this process at close()
        self.client.start_thread()

    def __enter__(self) -> "RosTestNode":
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def close(self) -> None:
        """Shut down in the documented order; safe to call twice."""
        if self._closed:
            return
        self._closed = True
        self.segments = fastdds_segments_of(os.getpid())
        if self.launcher is not None:
            self.launcher.watched_segments |= self.segments
        try:
            self.client.close()
        except RuntimeError as exc:                 # the spin thread did not stop
            raise HarnessError(str(exc)) from None

    def leftover_segments(self) -> set[str]:
        """After close() *and* after every other participant it talked to has stopped:
        shm files it had mapped that still exist and that no other context of this
        process maps (empty when everything shut down cleanly). With other nodes still
        running, their own segments (which this node mapped to write to them) count too,
        so prefer NodeLauncher.watched_segments, checked by stop_all()."""
        return (self.segments & fastdds_segments()) - fastdds_segments_of(os.getpid())

    # -- waiting ---------------------------------------------------------------
    def wait_for(self, predicate: Callable[[], bool], what: str, timeout: float = 10.0) -> float:
        """Poll `predicate` until true; return the seconds it took.

        Raises HarnessError after `timeout` s, or as soon as a launched process
        dies, with the tails of all process logs.
        """
        start = time.monotonic()
        deadline = start + timeout
        while True:
            if predicate():
                return time.monotonic() - start
            if self.launcher:
                self.launcher.check_alive(what)
            if time.monotonic() >= deadline:
                logs = self.launcher.describe_all() if self.launcher else ""
                raise HarnessError(f"timed out after {timeout:.1f} s waiting for {what} "
                                   f"(ROS_DOMAIN_ID={self.env.domain_id})\n{logs}")
            time.sleep(POLL_S)

    def wait_for_node(self, name: str, timeout: float = 10.0) -> float:
        """Wait until a node called `name` ("arm" or "/ns/arm") is in the graph."""
        ns, base = _normalize_node_name(name)
        return self.wait_for(
            lambda: (base, ns) in self.node.get_node_names_and_namespaces(),
            f"node '{name}' to appear in the ROS graph", timeout)

    def wait_for_publisher(self, topic: str, timeout: float = 10.0, count: int = 1) -> float:
        """Wait until `topic` has at least `count` publishers."""
        return self.wait_for(lambda: self.node.count_publishers(topic) >= count,
                             f"{count} publisher(s) on topic '{topic}'", timeout)

    def wait_for_subscriber(self, topic: str, timeout: float = 10.0, count: int = 1) -> float:
        """Wait until `topic` has at least `count` subscribers."""
        return self.wait_for(lambda: self.node.count_subscribers(topic) >= count,
                             f"{count} subscriber(s) on topic '{topic}'", timeout)

    def wait_for_action_server(self, action_type, action_name: str, timeout: float = 10.0,
                               client=None) -> float:
        """Wait until an `action_type` server named `action_name` is ready.

        Uses `client` (an rclpy ActionClient on this node) if given, else a
        temporary one, made and destroyed on the executor thread (see
        :meth:`create_action_client`).
        """
        own = client is None
        client = client or self.create_action_client(action_type, action_name)
        try:
            waited = self.wait_for(client.server_is_ready, f"action server '{action_name}'", timeout)
            # ready means this side found the server; the server may not have found the client
            # yet, and Fast DDS drops a response to a client it has not matched
            # (ros2/rmw_fastrtps#467): a client younger than MATCH_SETTLE_S waits until it is not
            made = getattr(client, "_robot_tasks_made_at", None)
            if made is not None and time.monotonic() - made < MATCH_SETTLE_S:
                time.sleep(MATCH_SETTLE_S - (time.monotonic() - made))
            return waited
        finally:
            if own:
                self.destroy_action_clients([client])

    # -- action clients ----------------------------------------------------------
    def run_on_executor(self, function: Callable[[], object], what: str, timeout: float = 10.0):
        """Run `function` on the executor thread (between callbacks); return its result."""
        return self.wait_future(self.executor.create_task(function), timeout, what)

    def create_action_client(self, action_type, action_name: str):
        """An rclpy ActionClient on this node, created on the executor thread.

        Why: rclpy 9.1.2's ActionClient adds itself to the node before it sets its
        ``_lock``, so the spinning executor can pick up a half-built client; and
        destroy() clears its handle while the node still lists it. Done from the test
        thread while the node spins, either can kill the spin thread (AttributeError),
        after which every wait of the test times out, now and then, under load. Destroy
        it with :meth:`destroy_action_clients`, or keep it for the node's lifetime.
        """
        from rclpy.action import ActionClient

        client = self.run_on_executor(lambda: ActionClient(self.node, action_type, action_name),
                                      f"creating an action client for '{action_name}'")
        client._robot_tasks_made_at = time.monotonic()
        return client

    def destroy_action_clients(self, clients: Iterable) -> None:
        """Destroy ActionClients of this node on the executor thread."""
        clients = list(clients)
        if clients:
            self.run_on_executor(lambda: [c.destroy() for c in clients],
                                 "destroying the action clients")

    def wait_for_service(self, srv_type, service_name: str, timeout: float = 10.0) -> float:
        """Wait until a `srv_type` service named `service_name` is ready."""
        client = self.node.create_client(srv_type, service_name)
        try:
            return self.wait_for(client.service_is_ready, f"service '{service_name}'", timeout)
        finally:
            self.node.destroy_client(client)

    def wait_future(self, future, timeout: float = 10.0, what: str = "a ROS future"):
        """Block the test thread until an rclpy Future is done; return its result."""
        done = threading.Event()
        future.add_done_callback(lambda _f: done.set())
        start = time.monotonic()
        while not done.wait(POLL_S):
            if self.launcher:
                self.launcher.check_alive(what)
            if time.monotonic() - start > timeout:
                logs = self.launcher.describe_all() if self.launcher else ""
                raise HarnessError(f"timed out after {timeout:.1f} s waiting for {what}\n{logs}")
        if future.exception() is not None:
            raise future.exception()
        return future.result()


class ActionClients:
    """The ActionClients a test makes on a RosTestNode, all destroyed by :meth:`destroy_all`
    (the ``action_clients`` fixture calls it at teardown); created and destroyed on the
    node's executor thread (see :meth:`RosTestNode.create_action_client`)."""

    def __init__(self, ros_node: RosTestNode):
        self.ros_node = ros_node
        self.clients: list = []

    def create(self, action_type, action_name: str):
        client = self.ros_node.create_action_client(action_type, action_name)
        self.clients.append(client)
        return client

    def wait_for_server(self, action_type, action_name: str, timeout: float = 10.0):
        """Wait until the server is ready; return the (kept) client that saw it."""
        client = self.create(action_type, action_name)
        self.ros_node.wait_for_action_server(action_type, action_name, timeout=timeout, client=client)
        return client

    def destroy_all(self) -> None:
        clients, self.clients = self.clients, []
        self.ros_node.destroy_action_clients(clients)




def wait_until(predicate: Callable[[], bool], what: str, timeout: float,
               processes: Iterable[NodeProcess] = ()) -> float:
    """Poll `predicate` without ROS (e.g. for a log line or a file); return seconds taken."""
    start = time.monotonic()
    while not predicate():
        for proc in processes:
            if not proc.is_running():
                raise HarnessError(f"{proc.name} exited while waiting for {what}\n{proc.describe()}")
        if time.monotonic() - start > timeout:
            logs = "\n".join(p.describe() for p in processes)
            raise HarnessError(f"timed out after {timeout:.1f} s waiting for {what}\n{logs}")
        time.sleep(POLL_S)
    return time.monotonic() - start
