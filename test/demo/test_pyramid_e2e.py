"""End to end: `robot-tasks demo franka_pyramid` with the real sim (two Pandas), four servers,
perception and one tree executor running both robots' trees over loopback DDS, undisturbed
and with a drag of a cube a robot has reserved and is reaching for.

Each case is a full episode (~2.5 min wall on a loaded 2-core machine). Graded on the
sim's ground truth by the demo itself; here we check its verdict, each robot's result,
the bookkeeping in the executor's log, and the recovery the drag must trigger. As with
stacking, a second seed is tried if the first episode fails (bench/pyramid_success.py
measures the rate); a broken recovery fails both.
"""
from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from demo_cli import run_demo_cli
from sent_trajectory_check import check_sent_trajectories

pytestmark = [pytest.mark.ros, pytest.mark.sim, pytest.mark.slow]

# An undisturbed episode that needed a recovery moves on to the next seed like a failed one:
# in CI on 2026-12-03 seed 1 logged "cube dropped while carried" with nothing disturbed (the
# arms still bump the pyramid now and then; issue 12), recovered and succeeded. Both seeds
# recovering, or any failure of the second, still fails the test.
SEEDS = (1, 2)
RESERVE = re.compile(r"reserve: (\w+) -> (\w+)")
PLACED = re.compile(r"placed: (\w+) put (\w+) at level (\d)")


@pytest.mark.parametrize("disturb", [None, "drag"])
def test_two_pandas_take_the_pyramid_apart(disturb, tmp_path):
    for seed in SEEDS:
        out = tmp_path / f"seed{seed}"
        done = run_demo_cli("franka_pyramid", seed, out, disturb, timeout=600)
        if done.returncode == 0 and (disturb or not _recoveries_of(out, seed)):
            break
        print(f"seed {seed} failed (exit {done.returncode}; recoveries {_recoveries_of(out, seed)}):"
              f"\n{done.stdout[-2000:]}")
    runs = list(Path(out).glob(f"franka_pyramid_seed{seed}_*"))
    assert len(runs) == 1, done.stdout[-3000:] + done.stderr[-3000:]
    report = json.loads((runs[0] / "report.json").read_text())
    log = report.get("task_log", [])
    why = (f"report: {json.dumps({k: report.get(k) for k in ('tree_result', 'robot_results', 'recoveries', 'disturbance', 'stacks')})}"
           f"\ntask log: {log[-40:]}")
    assert done.returncode == 0 and report["success"] is True, why
    assert report["robot_results"] == {"panda_1": "SUCCESS", "panda_2": "SUCCESS"}, why
    stacks = {row["robot"]: row["stack"] for row in report["stacks"]}
    assert all(len(cubes) == 3 for cubes in stacks.values()) and not set(stacks["panda_1"]) & set(stacks["panda_2"])
    reservations = [m.groups() for m in map(RESERVE.search, log) if m]
    placed = [m.groups() for m in map(PLACED.search, log) if m]
    if not any("restack:" in line for line in log):
        # the bookkeeping: every cube reserved once, by the robot that then stacked it, level by level
        assert sorted(c for _r, c in reservations) == sorted(stacks["panda_1"] + stacks["panda_2"]), why
        for robot, cubes in stacks.items():
            assert [c for r, c, _level in placed if r == robot] == cubes, why
            assert [int(level) for r, _c, level in placed if r == robot] == [0, 1, 2]
        assert {r for r, c in reservations for rr, cc, _l in placed if c == cc and r != rr} == set(), why
    else:
        # a cube knocked off a stack was booked free and stacked anew (ReconcileOwnStack): the
        # last placement of each cube put it on the level where it stands
        for robot, cubes in stacks.items():
            last_level = {c: int(level) for r, c, level in placed if r == robot}
            assert [last_level.get(c) for c in cubes] == [0, 1, 2], why
    assert 0.0 < report["motion"]["both_moving_fraction"] < 1.0
    assert report["cubes_watched"] == 6, why        # the bump watch saw the ground truth of every cube
    assert report["node_exit_codes"] == {n: 0 for n in report["node_exit_codes"]}
    assert (runs[0] / "montage.png").stat().st_size > 10_000
    for server in ("arm_server_1", "arm_server_2"):   # each Panda's: within the Panda's limits
        check_sent_trajectories(runs[0], server)
    if disturb:
        dragged = report["disturbance"]["request"]["object_name"]
        assert report["disturbance"]["response"]["success"] is True, why
        assert any(r["what"].startswith("cube moved") for r in report["recoveries"]), why
        assert any(r["what"].startswith("restaged") for r in report["recoveries"]), why
        assert any(f["flag"] == "flag_moved" and f["robot"] == "panda_1" for f in report["recovery_flags"]), why
        assert dragged in stacks["panda_1"], why       # the robot that had reserved it still stacked it
    else:
        assert report["recoveries"] == [], why


def _recoveries_of(out, seed) -> list:
    """What the episode under `out` recovered from ([] when it wrote no report)."""
    reports = list(Path(out).glob(f"franka_pyramid_seed{seed}_*/report.json"))
    return json.loads(reports[0].read_text()).get("recoveries", []) if reports else []
