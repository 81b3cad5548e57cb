"""The speed table's cells, verdicts and table (bench/speed_table.py; the episodes themselves
are the demos', tested end to end in this folder)."""
import pytest

from robot_tasks.demo.speed_table import Cell, all_cells, failures, select_cells, table, verdict
from robot_tasks.tasks.catalog import tasks


def test_every_task_mode_and_object_is_a_cell():
    labels = {cell.label for cell in all_cells()}
    for spec in tasks():
        variants = spec.objects or ("none", *spec.disturbances)
        assert {f"{spec.name}:{v}" for v in variants} <= labels
    assert len(labels) == len(all_cells()) == sum(len(spec.objects or spec.modes) for spec in tasks())
    assert {"franka_stacking:knock", "ur10_palletizing:tilt", "franka_pyramid:drop", "banana_bowl:lemon",
            "franka_press:none"} <= labels                 # issue 37's list reaches every task


def test_cells_are_chosen_by_task_or_task_and_mode():
    assert [c.label for c in select_cells("franka_pyramid")] == ["franka_pyramid:none", "franka_pyramid:drag",
                                                                "franka_pyramid:drop"]
    assert select_cells("banana_bowl:lemon, franka_press,banana_bowl:lemon") == [Cell("banana_bowl", "lemon"),
                                                                                 Cell("franka_press")]
    with pytest.raises(ValueError, match="no cell 'franka_stacking:tilt'; known: banana_bowl:banana, "):
        select_cells("franka_stacking:tilt")


def test_verdict_needs_both_speeds_at_target_and_close_together():
    assert verdict({1.0: 100.0, 0.0: 95.0}) == "PASS"
    assert verdict({1.0: 100.0, 0.0: 90.0}) == "MISS (rtf 0 < 95%; gap > 5 pts)"
    assert verdict({1.0: 94.0, 0.0: 100.0}) == "MISS (rtf 1 < 95%; gap > 5 pts)"
    assert verdict({1.0: 100.0, 0.0: None}) == "-"


def run(seed, ok, rtf, sim=10.0, wall=20.0):
    return {"seed": seed, "rtf": rtf, "success": ok, "sim_time_s": sim, "wall_time_s": wall,
            "error": None if ok else "timed out after 600 s", "folder": f"runs/x/seed{seed}"}


def test_table_counts_each_speed_and_lists_the_failures():
    results = {Cell("franka_stacking", "drag"): {1.0: [run(0, True, 1.0, 20.0, 30.0), run(1, True, 1.0, 22.0, 32.0)],
                                                 0.0: [run(0, True, 0.0, 24.0, 9.0), run(1, False, 0.0)]}}
    text = table(results)
    row = text.splitlines()[2]
    assert "franka_stacking:drag" in row and "2/2 100%" in row and "1/2  50%" in row
    assert "21.0" in row and "31.0" in row                # medians of the successful rtf 1 runs
    assert "-50 pts" in row and "MISS (rtf 0 < 95%; gap > 5 pts)" in row
    assert failures(results) == ["franka_stacking:drag rtf 0 seed 1: timed out after 600 s (runs/x/seed1)"]
    results[Cell("franka_stacking", "drag")][1.0][1]["disturbed"] = False
    assert table(results).splitlines()[2].endswith("gap > 5 pts); 1 never disturbed")


def test_the_journal_keeps_every_episode_and_a_later_run_skips_what_it_holds(tmp_path, monkeypatch):
    from robot_tasks.demo import speed_table

    journal = tmp_path / "episodes.jsonl"
    ran = []

    def fake_episode(cell, seed, rtf, out, timeout=None):     # the episodes themselves: the demos' e2e tests
        ran.append((cell.label, seed, rtf))
        return run(seed, seed != 1, rtf)

    monkeypatch.setattr(speed_table, "run_episode", fake_episode)
    cells = [Cell("franka_press")]
    first = speed_table.run_table(cells, [0, 1], (1.0,), tmp_path, say=lambda _: None, journal=journal)
    assert ran == [("franka_press:none", 0, 1.0), ("franka_press:none", 1, 1.0)]
    with journal.open("a") as f:
        f.write('{"cell": "franka_press:none", "seed": 2, "rt')       # a run killed while writing
    ran.clear()
    second = speed_table.run_table(cells, [0, 1, 2], (1.0, 0.0), tmp_path, say=lambda _: None, journal=journal)
    assert ran == [("franka_press:none", 0, 0.0), ("franka_press:none", 1, 0.0), ("franka_press:none", 2, 1.0),
                   ("franka_press:none", 2, 0.0)]
    assert [r["success"] for r in second[cells[0]][1.0]] == [True, False, True]
    assert [r["seed"] for r in first[cells[0]][1.0]] == [0, 1]
    assert {r["commit"] for r in first[cells[0]][1.0]} == {speed_table.current_commit()}
    from_journal = speed_table.results_from_journal(journal, cells, [0, 1, 2], (1.0, 0.0))
    assert [r["seed"] for r in from_journal[cells[0]][0.0]] == [0, 1, 2]
    assert all(r["commit"] == speed_table.current_commit() for r in from_journal[cells[0]][0.0])
    assert table(from_journal) == table(second)


def test_an_episode_reads_its_own_run_folder_when_another_lane_writes_next_to_it(tmp_path, monkeypatch):
    """Two bench lanes at one speed share a cell's folder: the other lane's episode may start
    (its folder made, no report yet) while this one runs; this one's report is the one read."""
    from robot_tasks.demo import speed_table, task_demo
    from robot_tasks.demo.runner import run_folder_prefix

    out = tmp_path / "ur10_palletizing_tilt" / "rtf1"

    def demo_with_a_neighbour(task, *, seed, rtf, out, say, timeout, disturb, pick_object):
        mine = out / (run_folder_prefix(task, seed, disturb, pick_object) + "20261206-152400")
        mine.mkdir(parents=True)
        (mine / "report.json").write_text('{"sim_time_s": 247.2, "wall_time_s": 255.4, "error": null}')
        # other lanes' episodes, started meanwhile: their folders sort after this one's
        for other, stamp in ((2, "20261206-152813"), (3, "20261206-152900")):
            (out / (run_folder_prefix(task, other, disturb, pick_object) + stamp)).mkdir()
        return 0

    monkeypatch.setattr(task_demo, "run_task_demo", demo_with_a_neighbour)
    episode = speed_table.run_episode(Cell("ur10_palletizing", "tilt"), 1, 1.0, out)
    assert episode["success"] is True and episode["sim_time_s"] == 247.2
    assert episode["folder"].endswith("ur10_palletizing_seed1_tilt_20261206-152400")
