"""The dataset bookkeeping of `robot-tasks record` and the bench: which episodes are kept,
what the index says, how a failure is split by component. Episodes are stood in for by
run folders written here (the physics episodes themselves: test_banana_bowl_e2e.py)."""
from __future__ import annotations

import json

import numpy as np

from robot_tasks.commands.record import progress_line
from robot_tasks.demo import demonstrations
from robot_tasks.demo.demonstrations import Episode, record_dataset


def report(within=True, inside=True, node_status="SUCCESS", error=None):
    r = {"success": within and inside and node_status == "SUCCESS" and error is None,
         "tree_result": {"node_status": node_status, "message": "x failed" if node_status != "SUCCESS" else ""},
         "placement": {"within_footprint": within, "inside_bowl": inside, "success": within and inside},
         "trace": {"length": 120, "duration_s": 0.5}}
    if error:
        r["error"] = error
    return r


def test_failures_are_split_by_component():
    def failure(**kw):
        r = report(**kw)
        return Episode(1, "banana", 0 if r["success"] else 1, None, r).failure()
    assert failure() == ""
    assert failure(within=False) == "within_footprint"
    assert failure(inside=False) == "inside_bowl"
    assert failure(within=False, inside=False) == "both"
    assert failure(node_status="FAILURE") == "run: x failed"
    r = report(node_status="FAILURE")
    r["tree_result"]["message"] = ("the tree returned FAILURE; last failed leaf: BananaBowl/banana_bowl/release "
                                   "(ABORTED: '/gripper_command' aborted the goal: error_code 9 NO_JOINT_STATES: late)")
    assert Episode(1, "banana", 1, None, r).failure() == "run: release NO_JOINT_STATES"
    assert failure(error="timed out after 600 s") == "run: timed out after 600 s"


def test_only_successful_episodes_are_kept_and_indexed(tmp_path, monkeypatch):
    outcome = {0: report(), 1: report(inside=False), 2: report(), 3: report()}

    def fake_episode(seed, pick_object, out, rtf=1.0, render=True, nodes=None):
        folder = out / f"banana_bowl_{pick_object}_seed{seed}_x"
        folder.mkdir(parents=True)
        np.savez(folder / "trace.npz", stamps=np.zeros(3))
        (folder / "report.json").write_text(json.dumps(outcome[seed]))
        return Episode(seed, pick_object, 0 if outcome[seed]["success"] else 1, folder, outcome[seed])

    monkeypatch.setattr(demonstrations, "run_episode", fake_episode)
    seen = []
    index = record_dataset(3, tmp_path / "data", "banana", first_seed=0,
                           progress=lambda done, total, ep: seen.append((done, total, ep and ep.seed)))
    assert (index["attempted"], index["kept"]) == (4, 3)
    assert [e["seed"] for e in index["episodes"]] == [0, 2, 3]
    assert index["skipped"] == [{"seed": 1, "why": "inside_bowl"}]
    first = index["episodes"][0]
    assert first["success"] == {"within_footprint": True, "inside_bowl": True, "success": True}
    assert first["length"] == 120 and first["files"]["trace"] == "episode_0000/trace.npz"
    assert (tmp_path / "data" / "episode_0002" / "trace.npz").is_file()
    assert not (tmp_path / "data" / "_runs").exists()                  # failed runs are not kept
    assert json.loads((tmp_path / "data" / "index.json").read_text()) == index
    assert seen[0] == (0, 3, None) and seen[-1] == (3, 3, 3)


def test_attempts_are_bounded(tmp_path, monkeypatch):
    def always_fails(seed, pick_object, out, rtf=1.0, render=True, nodes=None):
        return Episode(seed, pick_object, 1, None, report(within=False))

    monkeypatch.setattr(demonstrations, "run_episode", always_fails)
    index = record_dataset(2, tmp_path / "data")
    assert (index["attempted"], index["kept"]) == (4, 0)


def test_progress_bar_says_how_far_and_what_happened():
    ok = Episode(5, "banana", 0, None, report())
    bad = Episode(6, "banana", 1, None, report(inside=False))
    assert progress_line(0, 4, None) == "[" + "." * 30 + "] 0/4"
    assert progress_line(2, 4, ok).startswith("[" + "#" * 15 + "." * 15 + "] 2/4  seed 5: kept")
    assert progress_line(2, 4, bad).endswith("seed 6: skipped (inside_bowl)")
