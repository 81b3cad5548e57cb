"""What every demo run does around its tree: a run folder, loopback DDS, the node set, cleanup.

    run = prepare_run(config, out, "franka_press_<stamp>", {"sim": {"real_time_factor": 1.0}})
    result = run_with_nodes(run, report, make_watcher, body, say)

`prepare_run` loads the bringup YAML (the same one `robot-tasks bringup` and the launch file
use), makes the run folder, writes a copy of the YAML with the demo's overrides, picks a free
ROS_DOMAIN_ID and puts this process on loopback DDS with it (the network rule: every demo
stays on 127.0.0.1). `run_with_nodes` starts the nodes with their output in nodes.log, makes
the demo's watcher (a ROS client of its own, handed tree_status.log), runs `body(watcher,
supervisor)`, and always closes the watcher and stops the nodes, recording their exit codes.
"""
from __future__ import annotations

import time
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path
from typing import Callable

from robot_tasks.demo.report import EpisodeReport
from robot_tasks.process import (
    FOXGLOVE_NODE,
    Supervisor,
    check_executables,
    child_environment,
    load_plan,
    with_overrides,
)


@dataclass(frozen=True)
class DemoRun:
    plan: object          # robot_tasks.process.BringupPlan
    folder: Path
    params: Path          # the YAML copy with the demo's overrides
    domain: int
    dds_settings: dict


def run_stamp() -> str:
    return datetime.now(timezone.utc).strftime("%Y%m%d-%H%M%S")


def prepare_run(config: Path, out: Path, folder_name: str, overrides: dict, foxglove: bool = False,
                gui: bool = False) -> DemoRun:
    """`foxglove`: also run the optional Foxglove bridge; `gui`: the sim in PyBullet's window."""
    from robot_tasks.ros.dds import configure_loopback_dds, loopback_dds_settings
    from robot_tasks.ros.domains import pick_free_domain_id

    plan = load_plan(config)
    if foxglove:
        plan.enable(FOXGLOVE_NODE)
    check_executables(plan)
    if gui:
        overrides = {**overrides, "sim": {**overrides.get("sim", {}), "gui": True}}
    folder = Path(out) / folder_name
    folder.mkdir(parents=True, exist_ok=True)
    # every run folder gets a .btlog of the run (Groot2 replays the episode from it) and a
    # recording of every leaf's results and writes (`robot-tasks replay` re-runs it offline)
    overrides = {**overrides, "tree_executor": {**overrides.get("tree_executor", {}),
                                                "btlog_dir": str(folder.resolve()),
                                                "record_dir": str(folder.resolve())}}
    params = with_overrides(plan, overrides, folder / "params")
    domain = pick_free_domain_id()
    settings = loopback_dds_settings(domain, folder / "ros_log")
    configure_loopback_dds(domain, folder / "ros_log")
    return DemoRun(plan, folder, params, domain, settings)


def watch_line(plan) -> str | None:
    """How to watch the run's tree live (the tree executor's Groot2 port), None when it serves none."""
    from robot_tasks.bt.groot2 import DEFAULT_PORT
    from robot_tasks.runtime.monitors import watch_hint

    params = plan.parameters("tree_executor")
    port = int(params.get("groot2_port", DEFAULT_PORT))
    return f"demo: {watch_hint(params.get('groot2_address', '127.0.0.1'), port)}" if port else None


def latest_file(folder: Path, pattern: str) -> str | None:
    """The name of the newest file of `folder` matching `pattern` (the run's .btlog for
    Groot2's Log Replay, its .replay.jsonl for `robot-tasks replay`), None when there is none."""
    names = sorted(p.name for p in Path(folder).glob(pattern))
    return names[-1] if names else None


def check_nodes(supervisor, report: EpisodeReport) -> None:
    """RuntimeError (and report.error) when a node has exited."""
    ended = supervisor.first_exit()
    if ended is not None:
        report.error = f"node '{ended[0]}' exited with code {ended[1]} (see nodes.log)"
        raise RuntimeError(report.error)


def wait_until(ready, deadline: float, supervisor, report: EpisodeReport, period: float = 0.05) -> bool:
    """Poll `ready()` until it holds (True) or the monotonic `deadline` passes (False); between
    polls a node that exited ends the wait as check_nodes says."""
    while not ready():
        if time.monotonic() >= deadline:
            return False
        check_nodes(supervisor, report)
        time.sleep(period)
    return True


def wait_for_server(action_client, supervisor, report: EpisodeReport, timeout: float) -> bool:
    """Wait for the ExecuteTree server (watching that no node died); False after `timeout`."""
    if wait_until(action_client.server_is_ready, time.monotonic() + timeout, supervisor, report, period=0.2):
        return True
    report.error = f"no ExecuteTree server within {timeout} s"
    return False


def executed(sent, report: EpisodeReport):
    """The ExecuteTree goal `sent` (a DriverGoal)'s outcome, (status, result), once the tree
    ended; None while it runs. RuntimeError (and report.error) if the executor rejected it.

    A DriverGoal, not a bare send_goal_async: the demo's client is made moments before the
    goal, and a goal response Fast DDS drops to a client it has not matched yet would leave
    the run waiting for a tree that ended long ago (robot_tasks/ros/goal_by_id.py)."""
    if sent.refused:
        report.error = "the ExecuteTree goal was rejected"
        raise RuntimeError(report.error)
    return sent.outcome()


def run_with_nodes(run: DemoRun, report: EpisodeReport, make_watcher: Callable, body: Callable,
                   say: Callable[[str], None], starting: str = ""):
    """Start the nodes, `watcher = make_watcher(status_log)`, return `body(watcher, supervisor)`
    (None when a node died); the watcher is closed and the nodes stopped in every case."""
    result = None
    with open(run.folder / "nodes.log", "w") as nodes_log, open(run.folder / "tree_status.log", "w") as status_log:
        supervisor = Supervisor(run.plan, run.params, child_environment(run.dds_settings), out=nodes_log)
        watcher = None
        try:
            say(f"demo: starting {', '.join(s.name for s in run.plan.nodes)}{starting}")
            supervisor.start()
            watcher = make_watcher(status_log)
            result = body(watcher, supervisor)
        except RuntimeError as exc:  # a node died: report it, stop the rest
            say(f"demo: {exc}")
        finally:
            if watcher is not None:
                watcher.close()
            say("demo: stopping the nodes")
            report.node_exit_codes = supervisor.stop_all()
    return result
