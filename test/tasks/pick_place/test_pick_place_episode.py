"""PICK_PLACE, the demo episode (robot_tasks/tasks/pick_place/episode.py): the payload, the
drag rule and the grader, on hand-made ground truth (no ROS, no sim)."""
from __future__ import annotations

import math
from types import SimpleNamespace

import pytest

from robot_tasks.sim.scenes.franka_pick_place import target_for_seed
from robot_tasks.tasks.catalog import task_spec
from robot_tasks.tasks.pick_place import episode
from robot_tasks.tasks.pick_place.plan import parse_target

LEVEL = (0.0, 0.0, 0.0, 1.0)


def poses(cube_xyz, target_xy=(0.5, -0.1), cube_q=LEVEL):
    return {"red_cube": (tuple(cube_xyz), cube_q), "target": ((*target_xy, 0.626), LEVEL)}


def test_the_spec_names_this_episode_and_its_tree():
    spec = task_spec("franka_pick_place")
    demo = spec.load_demo()
    assert demo is episode.PICK_PLACE and (demo.name, demo.tree_id) == (spec.name, spec.tree_id)
    assert spec.disturbances == episode.MODES and spec.items == "cubes"


@pytest.mark.parametrize("seed", [0, 5])
def test_the_payload_is_the_seed_s_target_as_the_tree_reads_it(seed):
    payload = episode.payload(SimpleNamespace(seed=seed))
    assert set(payload) == {"target"}
    assert parse_target(payload["target"]) == pytest.approx(target_for_seed(seed), abs=1e-4)


def test_the_drag_rule_arms_at_the_first_pre_grasp_and_fires_once_after_its_delay():
    rule = episode.make_rule("drag")
    world = poses((0.40, 0.10, 0.65))
    rule.on_phase_start("approach", 0, 10.0)
    assert rule.due(20.0, world) is None                       # not armed yet
    rule.on_phase_start("pre_grasp", 0, 10.0)
    assert rule.due(10.0 + episode.DRAG_DELAY_S / 2, world) is None
    request = rule.due(10.0 + episode.DRAG_DELAY_S, world)
    assert request["object_name"] == "red_cube" and request["mode"] == "DRAG"
    x, y, z = request["target"]
    assert math.dist((x, y), (0.40, 0.10)) >= episode.DRAG_CLEARANCE - 1e-9
    assert math.dist((x, y), (0.5, -0.1)) >= episode.DRAG_CLEARANCE - 1e-9    # not onto the target
    assert z == 0.65
    assert rule.due(99.0, world) is None                       # once
    rule.on_phase_start("pre_grasp", 0, 50.0)
    assert rule.due(99.0, world) is None and len(rule.log) == 2


def test_the_drag_rule_waits_for_a_pre_grasp_before_anything_is_placed():
    rule = episode.make_rule("drag")
    rule.on_phase_start("pre_grasp", 1, 0.0)
    assert rule.armed_at is None


def test_the_drag_rule_knows_only_drag():
    with pytest.raises(ValueError, match="franka_pick_place: disturbance 'drop'"):
        episode.make_rule("drop")


def test_the_drag_rule_says_when_the_ground_truth_lacks_the_cube():
    rule = episode.make_rule("drag")
    rule.on_phase_start("pre_grasp", 0, 0.0)
    assert rule.due(5.0, {"target": ((0.5, 0.0, 0.626), LEVEL)}) is None
    assert "not in the ground truth" in rule.log[-1]


def test_the_grade_passes_a_cube_resting_on_the_target():
    key, rows, ok, summary = episode.grade(poses((0.51, -0.1, 0.65)), {}, [])
    assert key == "cubes" and ok and rows[0]["ok"] and rows[0]["xy_offset"] == pytest.approx(0.01)
    assert summary.startswith("red_cube on the target: 1.0 cm off")


@pytest.mark.parametrize("cube_xyz, q, why", [
    ((0.525, -0.1, 0.65), LEVEL, "2.5 cm off: the target point on the cube's edge"),
    ((0.50, -0.1, 0.70), LEVEL, "on top of something, not on the table"),
    ((0.50, -0.1, 0.65), (math.sin(0.1), 0.0, 0.0, math.cos(0.1)), "tilted 11 degrees"),
])
def test_the_grade_fails_a_cube_off_the_target_off_the_table_or_tilted(cube_xyz, q, why):
    _, rows, ok, summary = episode.grade(poses(cube_xyz, cube_q=q), {}, [])
    assert not ok and not rows[0]["ok"], why
    assert "NOT on the target" in summary


def test_a_cube_turned_about_z_or_on_another_face_is_still_level():
    quarter_roll = (math.sin(math.pi / 4), 0.0, 0.0, math.cos(math.pi / 4))
    for q in ((0.0, 0.0, math.sin(0.3), math.cos(0.3)), quarter_roll):
        assert episode.grade(poses((0.5, -0.1, 0.65), cube_q=q), {}, [])[2]


def test_the_grade_without_the_cube_or_target_is_a_failure_that_says_so():
    _, rows, ok, summary = episode.grade({}, {}, [])
    assert not ok and "not in the sim's objects" in summary and rows[0]["ok"] is False
