"""End to end: a demo episode is recorded by the tree executor and `robot-tasks replay` re-runs it
offline with zero divergence; an edited copy of the tree stops at its first divergence.

Two real episodes (sim, servers, perception, tree executor over loopback DDS), each run once
for the module: franka_stacking with a drag (~35-60 s wall) and ur10_palletizing (~3-5 min
wall; the demo's own --timeout bounds it, and a run it cuts short is recorded and replayed
as well). Whether the task succeeded is the other e2e tests' concern: here the recording
of whatever happened must replay exactly.
"""
from __future__ import annotations

import json
from pathlib import Path

import pytest
from demo_cli import run_demo_cli
from paths import REPO

from robot_tasks.cli import main

pytestmark = [pytest.mark.ros, pytest.mark.sim, pytest.mark.slow]


def episode(out: Path, name: str, seed: int, disturb: str | None, timeout: float) -> Path:
    done = run_demo_cli(name, seed, out, disturb, timeout=timeout)
    runs = list(out.glob(f"{name}_seed{seed}_*"))
    assert len(runs) == 1, done.stdout[-3000:] + done.stderr[-3000:]
    report = json.loads((runs[0] / "report.json").read_text())
    assert "replay" in report, f"report.json links no recording: {sorted(report)}\n{done.stdout[-2000:]}"
    assert (runs[0] / report["replay"]).is_file()
    return runs[0]


@pytest.fixture(scope="module")
def stacking_run(tmp_path_factory):
    run = episode(tmp_path_factory.mktemp("stacking"), "franka_stacking", 3, "drag", timeout=300)
    report = json.loads((run / "report.json").read_text())
    assert report.get("disturbance", {}).get("response", {}).get("success") is True, report.get("disturbance")
    assert "tree_result" in report, f"the demo never heard the tree's end: {report.get('error')}"
    return run


@pytest.fixture(scope="module")
def palletizing_run(tmp_path_factory):
    return episode(tmp_path_factory.mktemp("palletizing"), "ur10_palletizing", 0, None, timeout=600)


def replay(capsys, *argv) -> tuple[int, str]:
    code = main(["replay", *map(str, argv)])
    return code, capsys.readouterr().out


def test_a_stacking_run_with_a_drag_replays_with_zero_divergence(stacking_run, capsys):
    code, out = replay(capsys, stacking_run)
    assert code == 0, out
    assert "franka_stacking.xml [FrankaStacking]: the file the run used" in out
    assert "result:    replayed exactly:" in out
    report = json.loads((stacking_run / "report.json").read_text())
    assert f"replayed exactly: {report['tree_result']['ticks']} ticks" in out


def test_a_palletizing_run_replays_with_zero_divergence(palletizing_run, capsys):
    code, out = replay(capsys, palletizing_run, "--print-blackboard")
    assert code == 0, out
    assert "result:    replayed exactly:" in out
    assert "\n  needs_flip = " in out   # the leaves' decisions are on the replayed blackboard


def test_an_edited_stacking_tree_reports_its_first_divergence(stacking_run, tmp_path, capsys):
    tree = (REPO / "trees" / "franka_stacking.xml").read_text()
    edited = tmp_path / "franka_stacking.xml"
    edited.write_text(tree.replace('code="holding := cube; grasps += 1"', 'code="holding := cube; grasps += 2"'))
    assert edited.read_text() != tree
    code, out = replay(capsys, stacking_run, "--tree", edited)
    assert code == 1, out
    assert "differs from the file the run used" in out
    assert "/PickCube/pick/book_holding\n" in out
    assert "why:    the run wrote grasps = 1; the replay wrote grasps = 2" in out


def test_stop_at_the_first_grasp_and_print_the_blackboard(stacking_run, capsys):
    code, out = replay(capsys, stacking_run, "--stop-at-node", "PickCube/pick/grasp", "--print-blackboard")
    assert code == 0, out
    assert "stopped in tick" in out and "/PickCube/pick/grasp returned RUNNING (call 1)" in out
    assert '\n  cube = "red_cube"\n' in out and '\n  mode = "stack"\n' in out
