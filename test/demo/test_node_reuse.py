"""Episodes on one node set (issue 37: 3): a failed episode leaks nothing into the next.

Real processes over loopback DDS at real-time factor 0. On one SharedNodes set, a stacking
episode is given up mid-motion (a 4 s timeout: its tree is cancelled while the arm moves
and the gripper may hold a cube), then the next seed runs on the same nodes after a
reset_scene. That episode must be graded exactly as the same seed on fresh nodes is.
An episode that leaves doubt (here: a node died) gets a fresh node set for the next one.
"""
from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

FAILED_SEED, SEED = 2, 3


def report_of(out: Path, seed: int) -> dict:
    (path,) = out.glob(f"franka_stacking_seed{seed}_*/report.json")
    return json.loads(path.read_text())


def graded(report: dict) -> tuple:
    return report["success"], [(c["cube"], c["ok"]) for c in report["cubes"]]


@pytest.mark.ros
@pytest.mark.sim
@pytest.mark.slow
def test_an_episode_given_up_mid_motion_leaks_nothing_into_the_next(tmp_path):
    from robot_tasks.demo.node_set import SharedNodes
    from robot_tasks.demo.runner import DemoOptions, run_demo
    from robot_tasks.tasks.stacking.episode import STACKING

    environment = dict(os.environ)       # run_demo puts this process on the run's DDS domain
    lines = []
    try:
        with SharedNodes(DemoOptions(task=STACKING, seed=FAILED_SEED, out=tmp_path / "reused", rtf=0.0),
                         say=lines.append) as nodes:
            failed = run_demo(DemoOptions(task=STACKING, seed=FAILED_SEED, out=tmp_path / "reused", rtf=0.0,
                                          timeout=4.0), say=lines.append, nodes=nodes)
            reused = run_demo(DemoOptions(task=STACKING, seed=SEED, out=tmp_path / "reused", rtf=0.0,
                                          timeout=300.0), say=lines.append, nodes=nodes)
        fresh = run_demo(DemoOptions(task=STACKING, seed=SEED, out=tmp_path / "fresh", rtf=0.0, timeout=300.0),
                         say=lines.append)
    finally:
        os.environ.clear()
        os.environ.update(environment)
    log = "\n".join(lines[-60:])
    first, second = report_of(tmp_path / "reused", FAILED_SEED), report_of(tmp_path / "reused", SEED)
    assert failed == 1 and first["error"].startswith("timed out"), log
    assert first.get("cancelled") == "IDLE", log     # the tree ended by the cancel: its leaves were halted
    assert second["node_set"]["start"] == 1 and second["node_set"]["episodes_before"] == 1, log
    fresh_report = report_of(tmp_path / "fresh", SEED)
    assert reused == fresh == 0, log
    assert graded(second) == graded(fresh_report), log
    # the episode's run folder is complete, as a fresh run's: its own .btlog and recording
    folder = next((tmp_path / "reused").glob(f"franka_stacking_seed{SEED}_*"))
    assert (folder / second["btlog"]).exists() and (folder / second["replay"]).exists()
    assert "release IDLE -> RUNNING" in (folder / "tree_status.log").read_text()


class FakeSupervisor:
    def __init__(self, exits=None):
        self.exits = exits

    def first_exit(self):
        return self.exits


def test_a_node_that_died_gets_the_next_episode_a_fresh_node_set(tmp_path, monkeypatch):
    """The set's own logic, with its processes and ROS replaced by stand-ins."""
    from types import SimpleNamespace

    from robot_tasks.demo.node_set import SharedNodes
    from robot_tasks.demo.report import EpisodeReport

    nodes = SharedNodes(options=None, say=lambda _line: None)
    started, resets = [], []

    def start():
        nodes.starts += 1
        started.append(nodes.starts)
        nodes.run = SimpleNamespace(domain=7, folder=tmp_path)
        nodes.supervisor = FakeSupervisor(("sim", -9) if nodes.starts == 1 else None)
        nodes.episodes_on_set, nodes.stale = 0, False

    monkeypatch.setattr(nodes, "start", start)
    def close():
        nodes.supervisor = None
        return {"sim": -9}

    monkeypatch.setattr(nodes, "close", close)
    monkeypatch.setattr(nodes, "_reset", resets.append)
    watcher = SimpleNamespace(close=lambda: None)
    body = lambda _watcher, _supervisor: {"node_status": "SUCCESS"}
    first, second = (EpisodeReport(scene="franka_stacking", tree="FrankaStacking", seed=seed, disturb=None,
                                   real_time_factor=0.0) for seed in (1, 2))
    assert nodes.run_episode(1, tmp_path, first, lambda _log: watcher, body, lambda _l: None) is None
    assert "node 'sim' exited with code -9" in first.error and nodes.stale
    assert nodes.run_episode(2, tmp_path, second, lambda _log: watcher, body, lambda _l: None) == \
        {"node_status": "SUCCESS"}
    assert started == [1, 2] and resets == [2] and second.node_set_restarted == {"exit_codes": {"sim": -9}}
    assert second.node_set == {"folder": str(tmp_path), "start": 2, "episodes_before": 0}


@pytest.mark.ros
@pytest.mark.sim
@pytest.mark.slow
def test_a_dataset_recorded_on_one_node_set_keeps_a_whole_demonstration_per_episode(tmp_path):
    """`robot-tasks record` runs its episodes on one node set: each kept episode's trace passes
    its checks, holds a row per control step both streams delivered, and starts after the last
    one ended (the sim's clock runs on through reset_scene); the set's nodes.log stays with the
    data. (Steps lost on the way are counted, not refused, as on fresh nodes: at rtf 0 on a
    loaded machine a first episode lost 156 gripper steps over its planned approach.)"""
    import subprocess
    import sys

    from robot_tasks.demo.trace import Trace

    repo = Path(__file__).resolve().parents[2]
    done = subprocess.run([sys.executable, "-m", "robot_tasks.cli", "record", "banana_bowl", "--episodes", "2",
                           "--rtf", "0", "--out", str(tmp_path / "data")], cwd=repo, capture_output=True, text=True,
                          env={"PYTHONPATH": str(repo), "PATH": "/usr/bin:/bin"}, timeout=900)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    index = json.loads((tmp_path / "data" / "index.json").read_text())
    assert index["kept"] == 2
    ends = []
    for entry in index["episodes"]:
        report = json.loads((tmp_path / "data" / entry["files"]["report"]).read_text())
        assert report["node_set"]["start"] == 1, report["node_set"]                     # one set for both
        assert (Path(report["node_set"]["folder"]) / "nodes.log").stat().st_size > 0
        trace = Trace.load(tmp_path / "data" / entry["files"]["trace"])
        checked = trace.check()
        received = report["trace"]["received"]
        assert len(trace) == entry["length"] <= min(received["arm"], received["gripper"]), received
        assert checked["missing_steps"] == report["trace"]["missing_steps"]
        ends.append((trace.stamps[0], trace.stamps[-1]))
    assert ends[1][0] > ends[0][1], ends           # the second episode's clock starts after the first's end
