"""End to end: `robot-tasks demo franka_stacking` with the real sim, servers, perception and
tree executor over loopback DDS, undisturbed and with each disturbance.

Each case is a full episode (~35-60 s wall on 2 cores). Graded on the sim's ground truth
by the demo itself; here we check its verdict, the recovery the disturbance must
trigger, and the run folder, including every trajectory the arm server sent (recorded in
its bag): none exceeds a joint's velocity, acceleration or jerk limit (issue 35).
"""
from __future__ import annotations

import json
from pathlib import Path

import pytest
from demo_cli import run_demo_cli
from sent_trajectory_check import check_sent_trajectories

pytestmark = [pytest.mark.ros, pytest.mark.sim, pytest.mark.slow]

EXPECTED_RECOVERY = {"drag": "pickup resync", "drop": "drop detected", "knock": "stack invalid"}
# A physics + perception + DDS episode succeeds ~90-95 % of the time (bench/stacking_success.py
# measures the rate over 20 seeds per mode). A test of one episode would fail CI on every
# 10th-20th run for reasons the bench already reports, so each mode gets a second seed if
# the first episode fails; a broken recovery fails both, and every check below applies to
# the episode that passed.
SEEDS = (2, 3)


def run_episode(disturb, seed, out: Path):
    return run_demo_cli("franka_stacking", seed, out, disturb, timeout=300)


@pytest.mark.parametrize("disturb", [None, "drag", "drop", "knock"])
def test_demo_stacks_all_four_cubes(disturb, tmp_path):
    for seed in SEEDS:
        out = tmp_path / f"seed{seed}"
        done = run_episode(disturb, seed, out)
        if done.returncode == 0:
            break
        print(f"seed {seed} failed (exit {done.returncode}):\n{done.stdout[-2000:]}")
    runs = list(out.glob(f"franka_stacking_seed{seed}_*"))
    assert len(runs) == 1, done.stdout[-3000:] + done.stderr[-3000:]
    report = json.loads((runs[0] / "report.json").read_text())
    task_log = report.get("task_log", [])
    why = (f"report: {json.dumps({k: report.get(k) for k in ('tree_result', 'recoveries', 'disturbance', 'cubes')})}"
           f"\ntask log: {task_log[-30:]}")
    assert done.returncode == 0, f"{done.stdout[-3000:]}\n{done.stderr[-2000:]}\n{json.dumps(report, indent=1)}"
    assert report["success"] is True, why
    assert [c["cube"] for c in report["cubes"] if c["ok"]] == ["red_cube", "blue_cube", "green_cube", "yellow_cube"]
    assert report["node_exit_codes"] == {n: 0 for n in report["node_exit_codes"]}
    assert report["sim_time_s"] > 5 and report["wall_time_s"] > 5
    assert (runs[0] / "montage.png").stat().st_size > 10_000
    # a .btlog of the episode that Groot2 replays: the tree, then its transitions
    from robot_tasks.bt.loggers import read_btlog
    tree_xml, _, transitions = read_btlog(runs[0] / report["btlog"])
    assert 'ID="FrankaStacking"' in tree_xml and len(transitions) > 100
    # how to watch it: live (the executor's Groot2 port) and afterwards, from the .btlog
    assert "robot-tasks monitor 127.0.0.1:1667" in done.stdout
    assert f"robot-tasks monitor --btlog {runs[0] / report['btlog']}" in done.stdout
    assert "release IDLE -> RUNNING" in (runs[0] / "tree_status.log").read_text()
    # every trajectory the arm server sent, from the run's bag: within the Panda's limits
    check_sent_trajectories(runs[0])
    # the task's decisions (Python logging in the leaves) reach the node's log and /rosout
    assert any(line.endswith("INFO decide: red_cube -> level 0") for line in task_log), why
    assert any("decide: red_cube -> level 0" in line for line in (runs[0] / "nodes.log").read_text().splitlines())
    if disturb:
        assert report["disturbance"]["response"]["success"] is True
        assert any(r["what"].startswith(EXPECTED_RECOVERY[disturb]) for r in report["recoveries"]), why
    else:
        assert report["recoveries"] == []
