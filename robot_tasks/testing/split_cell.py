"""franka_stacking's nodes over two hosts, kept running between goals: where link faults land.

robot_tasks.testing.split_stacking runs one episode and stops; a fault scenario needs the
two halves up while it pulls the cable, kills the robot's computer, and sends goal after
goal. :class:`SplitCell` starts them the same way (`robot-tasks bringup` per host with the
deployment DDS settings, the robot host first) and adds what the scenarios do to them:

- ``cli(...)``: a `robot-tasks` command on the task host, run to its end, timed;
- ``start_cli(...)``: one left running (a goal the fault lands on);
- ``kill_robot()`` / ``start_robot()``: the robot's computer dies (SIGKILL to its whole
  bringup, sim and all -- nothing is cleaned up) and boots again (a fresh scene);
- ``exits(host)``: the "exited with code" lines of a host's bringup (no process died: []).

The tree executor also loads the fault trees (test/support/trees/faults.xml: FaultArmSwing
swings the arm between two poses at 20 % speed, goal after goal).

    with TwoHosts() as hosts, SplitCell(hosts, out, domain_id) as cell:
        code, output, took = cell.cli("execute", "FaultArmSwing", "-p", "{cycles: 1}")
"""
from __future__ import annotations

import os
import re
import signal
import subprocess
import time
from pathlib import Path

from robot_tasks.testing.netns import TwoHosts, stop_process
from robot_tasks.testing.procfs import command_line, descendants
from robot_tasks.testing.split_stacking import SIM_READY, bringup_argv, cli, wait_for_line
from robot_tasks.testing.two_host_dds import REPO_ROOT, two_host_environment

FAULT_TREES = REPO_ROOT / "test" / "support" / "trees"
EXITED = "bringup: exited with code"
STAMPED = re.compile(r"\] \[(?:INFO|WARN)\] \[(\d+\.\d+)\]")   # an rclpy log line's wall-clock stamp
# The Panda's usual ready pose: a MoveToJoints goal that succeeds from any fresh scene.
HOME_GOAL = ("{joint_names: [panda_joint1, panda_joint2, panda_joint3, panda_joint4, panda_joint5, panda_joint6, "
             "panda_joint7], positions: [0.0, -0.785, 0.0, -2.356, 0.0, 1.571, 0.785]}")


class SplitCell:
    """The robot host's sim and the task host's servers + executor (module docstring)."""

    def __init__(self, hosts: TwoHosts, out: Path, domain_id: int, seed: int = 0, ready_timeout: float = 120.0):
        self.hosts, self.out, self.seed, self.ready_timeout = hosts, Path(out), seed, ready_timeout
        self.out.mkdir(parents=True, exist_ok=True)
        self.env = two_host_environment(hosts, domain_id, self.out / "ros_log")
        self.bringups: dict[str, subprocess.Popen] = {}
        self.logs: dict[str, Path] = {}
        self.boots = 0

    def __enter__(self) -> "SplitCell":
        try:
            self.start_robot()
            self._start("task", [*bringup_argv("task", self.seed), "--set",
                                 f"tree_executor.tree_dirs=['{FAULT_TREES}']"])
            # ready: a goal through the whole chain, executor -> arm server -> the sim's controller
            code, output, _ = self.cli("send-goal", "/move_to_joints", "robot_tasks_interfaces/action/MoveToJoints",
                                       HOME_GOAL, "--server-timeout", f"{self.ready_timeout:g}", timeout=180)
            if code != 0:
                raise RuntimeError(f"the split cell did not come up: {output[-1500:]}\n{self.tail('task')}")
        except BaseException:
            self.__exit__()
            raise
        return self

    def __exit__(self, *_exc) -> None:
        for host in ("task", "robot"):
            if host in self.bringups:
                stop_process(self.bringups.pop(host), sigint_s=20.0)

    # ---- the robot's computer ------------------------------------------------------------
    def start_robot(self) -> None:
        """Boot the robot host (a fresh sim scene); return once the sim publishes."""
        self.boots += 1
        self._start("robot", bringup_argv("robot", self.seed), suffix=f"_{self.boots}")
        wait_for_line(self.logs["robot"], SIM_READY, self.bringups["robot"], self.ready_timeout)

    def kill_robot(self) -> None:
        """The robot's computer dies: SIGKILL to its bringup and every node it started."""
        process = self.bringups.pop("robot")
        os.killpg(process.pid, signal.SIGKILL)
        process.wait(timeout=10)

    def _start(self, host: str, argv: list[str], suffix: str = "") -> None:
        self.logs[host] = self.out / f"{host}_bringup{suffix}.log"
        with open(self.logs[host], "w") as log:            # the child keeps its own copy
            self.bringups[host] = self.hosts.popen(host, argv, env=self.env, stdout=log, stderr=subprocess.STDOUT)

    def kill_node(self, host: str, node: str) -> int:
        """SIGKILL the process of `node` under `host`'s bringup (which may respawn it); its pid."""
        pids = [pid for pid in descendants(self.bringups[host].pid)
                if f"robot_tasks.nodes.{node}" in command_line(pid)]
        if len(pids) != 1:
            raise RuntimeError(f"expected one {node} process under the {host} bringup, found {pids}")
        os.kill(pids[0], signal.SIGKILL)
        return pids[0]

    # ---- commands on the task host ---------------------------------------------------------
    def cli(self, *args: str, timeout: float = 120.0) -> tuple[int | None, str, float]:
        """Run `robot-tasks args...` on the task host: (exit code, output, wall s)."""
        start = time.monotonic()
        done = self.hosts.run("task", cli(*args), env=self.env, check=False, timeout=timeout)
        return done.returncode, done.stdout + done.stderr, time.monotonic() - start

    def start_cli(self, *args: str) -> subprocess.Popen:
        """`robot-tasks args...` on the task host, left running; its output on .stdout (text)."""
        return self.hosts.popen("task", cli(*args), env=self.env, stdout=subprocess.PIPE,
                                stderr=subprocess.STDOUT, text=True)

    def start_on(self, host: str, argv: list[str], **kwargs) -> subprocess.Popen:
        """Any command on `host` with the cell's environment (stopped with the namespaces)."""
        return self.hosts.popen(host, argv, env=self.env, **kwargs)

    # ---- what the hosts said -----------------------------------------------------------------
    def exits(self, host: str) -> list[str]:
        """Lines of `host`'s bringup log that report a node's exit ([] while all live)."""
        return [line for line in self.logs[host].read_text(errors="replace").splitlines() if EXITED in line]

    def peer_lines(self, host: str, what: str) -> list[tuple[float, str]]:
        """(wall time, line) of each report of `host`'s peer_watch containing `what` (e.g.
        "peer /sim LOST"); the time is the line's own rclpy stamp."""
        found = []
        for line in self.logs[host].read_text(errors="replace").splitlines():
            stamp = STAMPED.search(line)        # "[peer_watch_N] [WARN] [1796450259.78] [peer_watch_N]: ..."
            if line.startswith("[peer_watch_") and what in line and stamp:
                found.append((float(stamp.group(1)), line))
        return found

    def wait_peer_line(self, host: str, what: str, timeout: float) -> bool:
        """Wait up to `timeout` s for `host`'s peer_watch to report `what`; whether it did."""
        deadline = time.monotonic() + timeout
        while not self.peer_lines(host, what):
            if time.monotonic() > deadline:
                return False
            time.sleep(0.2)
        return True

    def alive(self, host: str) -> bool:
        return host in self.bringups and self.bringups[host].poll() is None

    def tail(self, host: str, chars: int = 3000) -> str:
        return f"--- {host} bringup log (tail)\n" + self.logs[host].read_text(errors="replace")[-chars:]
