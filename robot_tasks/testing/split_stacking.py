"""`robot-tasks demo franka_stacking` split across two computers (two test namespaces).

On a real cell the robot's computer runs its drivers and the task's computer runs the rest.
Here the robot host (robot_tasks.testing.netns) runs the sim -- the Panda's drivers and the
camera -- and the task host runs state_publisher, arm_server, gripper_server,
perception_server and tree_executor. Both start from the same bringup file as the demo,
with `robot-tasks bringup config/franka_stacking.yaml --skip ...`, each host skipping the
other's nodes; both take the deployment DDS settings (robot_tasks.testing.two_host_dds).
The goal is sent from the task host with `robot-tasks execute FrankaStacking`, and the end
is graded from the task host on the sim's ground truth (robot_tasks.testing.stack_grade:
the `objects` topic, judged by the demo's judge_stack). Everything between the two hosts
-- joint states, trajectories, gripper actions, camera images, /clock -- crosses the veth.

    with TwoHosts() as hosts:
        run = run_split_stacking(hosts, out_dir, seed=2)
        assert run.success, run.describe()
"""
from __future__ import annotations

import json
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

from robot_tasks.process import load_plan
from robot_tasks.tasks.episode import CONFIG_DIR
from robot_tasks.tasks.stacking.episode import TREE_ID
from robot_tasks.testing.launcher import HarnessError
from robot_tasks.testing.netns import VETH, TwoHosts, stop_process
from robot_tasks.testing.two_host_dds import two_host_environment

CONFIG = CONFIG_DIR / "franka_stacking.yaml"
ROBOT_NODES = ("sim",)                  # the drivers: what a robot's own computer runs
# The sim's line once its scene is loaded and it publishes (joint states, /clock, camera).
SIM_READY = "]: scene franka_stacking seed"
# What a user waits for on the task computer before sending the goal: each server's line once
# it serves (the arm server's comes after it has the sim's robot_description).
TASK_READY = ("kinematics ready from robot_description", "gripper_server: parallel gripper", "DetectObjects on")


@dataclass
class SplitRun:
    """What one split episode did: the tree's result line, the grade, the traffic on the veth."""

    domain_id: int
    execute_code: int | None = None
    execute_output: str = ""
    grade: dict = field(default_factory=dict)
    veth_bytes: dict = field(default_factory=dict)     # host -> (rx bytes, tx bytes) on its veth
    exit_codes: dict = field(default_factory=dict)     # host -> bringup's exit code
    logs: dict = field(default_factory=dict)           # host -> bringup log path
    wall_s: float = 0.0
    disturbance: dict = field(default_factory=dict)    # remote_disturb's outcome ({} when undisturbed)

    @property
    def success(self) -> bool:
        fired = not self.disturbance or bool(self.disturbance.get("response", {}).get("success"))
        return self.execute_code == 0 and bool(self.grade.get("success")) and fired

    def describe(self) -> str:
        tails = {host: Path(p).read_text(errors="replace")[-3000:] for host, p in self.logs.items()
                 if Path(p).exists()}
        return (f"execute exit {self.execute_code}: {self.execute_output[-1500:]}\ngrade: {json.dumps(self.grade)}"
                f"\ndisturbance: {json.dumps(self.disturbance)}\nveth bytes: {self.veth_bytes}\nbringup exits: {self.exit_codes}\n"
                + "\n".join(f"--- {host} bringup log (tail)\n{text}" for host, text in tails.items()))


def cli(*args: str) -> list[str]:
    return [sys.executable, "-m", "robot_tasks.cli", *args]


def bringup_argv(host: str, seed: int) -> list[str]:
    """`robot-tasks bringup` for one host: the file's nodes minus the other host's."""
    names = [spec.name for spec in load_plan(CONFIG).nodes]
    mine = [n for n in names if (n in ROBOT_NODES) == (host == "robot")]
    skips = [arg for n in names if n not in mine for arg in ("--skip", n)]
    return cli("bringup", str(CONFIG), *skips, "--set", f"sim.seed={seed}")


def veth_bytes(hosts: TwoHosts, host: str) -> tuple[int, int]:
    """(rx, tx) bytes of `host`'s end of the cable, from its namespace's /proc/net/dev."""
    text = hosts.run(host, ["cat", "/proc/net/dev"]).stdout
    fields = text.split(f"{VETH}:", 1)[1].split()
    return int(fields[0]), int(fields[8])


def wait_for_line(log: Path, text: str, process: subprocess.Popen, timeout: float) -> None:
    """Return once `text` is in the log `process` writes; HarnessError if it ends or times out."""
    deadline = time.monotonic() + timeout
    while text not in log.read_text(errors="replace"):
        if process.poll() is not None or time.monotonic() > deadline:
            why = f"exited with {process.returncode}" if process.poll() is not None else f"not within {timeout:g} s"
            raise HarnessError(f"waiting for {text!r} in {log}: {why}\n{log.read_text(errors='replace')[-2000:]}")
        time.sleep(0.2)


def run_split_stacking(hosts: TwoHosts, out: Path, domain_id: int, seed: int = 0, timeout: float = 300.0,
                       server_timeout: float = 120.0, disturb: str | None = None) -> SplitRun:
    """One stacking episode across the two hosts; every process is stopped before it returns.
    `disturb` (e.g. "drag"): the demo's disturbance, sent from the task host
    (robot_tasks.testing.remote_disturb); the run succeeds only if it was sent and done."""
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    env = two_host_environment(hosts, domain_id, out / "ros_log")
    run = SplitRun(domain_id)
    started = time.monotonic()
    bringups = {}
    try:
        # The robot's computer first, as on a real cell: the drivers are up (the sim publishes
        # /clock) before the servers start; else the first gripper goal can find no /clock yet.
        for host in ("robot", "task"):
            run.logs[host] = out / f"{host}_bringup.log"
            log = open(run.logs[host], "w")
            bringups[host] = hosts.popen(host, bringup_argv(host, seed), env=env, stdout=log,
                                         stderr=subprocess.STDOUT)
            log.close()                                   # the child holds its own copy
            if host == "robot":
                wait_for_line(run.logs[host], SIM_READY, bringups[host], server_timeout)
        for line in TASK_READY:
            # else the tree's first leaf may look for a server the executor has not discovered yet
            # (its wait_for_server_timeout is 2 s; seen once on a loaded machine: SERVER_UNREACHABLE)
            wait_for_line(run.logs["task"], line, bringups["task"], server_timeout)
        if disturb:
            bringups["disturb"] = hosts.popen(
                "task", [sys.executable, "-m", "robot_tasks.testing.remote_disturb", disturb, "--timeout",
                         f"{timeout + server_timeout:g}"], env=env, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                text=True)
        # the executor appears on the task host; its tree waits for the servers it needs
        done = hosts.run("task", cli("execute", TREE_ID, "--quiet", "--timeout", f"{timeout:g}",
                                     "--server-timeout", f"{server_timeout:g}"),
                         env=env, check=False, timeout=timeout + server_timeout + 60)
        run.execute_code, run.execute_output = done.returncode, done.stdout + done.stderr
        if disturb:
            run.disturbance = _disturb_outcome(bringups.pop("disturb"))
        time.sleep(1.0)                                   # the last release settles in the sim
        grade = hosts.run("task", [sys.executable, "-m", "robot_tasks.testing.stack_grade", "--timeout", "20"],
                          env=env, check=False, timeout=90)
        lines = [line for line in grade.stdout.splitlines() if line.startswith("{")]
        run.grade = json.loads(lines[-1]) if lines else {"success": False, "error": grade.stderr[-1500:]}
        run.veth_bytes = {host: veth_bytes(hosts, host) for host in ("robot", "task")}
    finally:
        if "disturb" in bringups:
            stop_process(bringups["disturb"])
        for host in ("task", "robot"):                    # the clients first, the drivers last
            if host in bringups:
                run.exit_codes[host] = stop_process(bringups[host], sigint_s=30.0)
        run.wall_s = round(time.monotonic() - started, 1)
    return run


def _disturb_outcome(process: subprocess.Popen) -> dict:
    """remote_disturb's JSON line (it has ended once the sim answered; else it is stopped)."""
    if process.poll() is None:
        stop_process(process, sigint_s=5.0)
    lines = [line for line in (process.stdout.read() if process.stdout else "").splitlines() if line.startswith("{")]
    return json.loads(lines[-1]) if lines else {"error": f"remote_disturb printed nothing (exit {process.returncode})"}
