"""The two-part success predicate on constructed boxes: each component on its own."""
from __future__ import annotations

import pytest

from robot_tasks.tasks.banana_bowl.success import Box, judge_at_point, judge_in_bowl

BOWL = Box((0.42, 0.12, 0.625), (0.58, 0.28, 0.68))       # 16 cm across, rim at 0.68, centre (0.5, 0.2)
TOL, MARGIN = 0.06, 0.005


def obj(cx, cy, bottom, half=0.02, height=0.04) -> Box:
    return Box((cx - half, cy - half, bottom), (cx + half, cy + half, bottom + height))


def test_inside_the_bowl_passes_both():
    check = judge_in_bowl(obj(0.51, 0.21, 0.64), BOWL, TOL, MARGIN)
    assert (check.within_footprint, check.inside_bowl, check.success) == (True, True, True)


def test_resting_on_the_rim_is_within_the_footprint_but_not_inside():
    check = judge_in_bowl(obj(0.50, 0.20, 0.677), BOWL, TOL, MARGIN)     # bottom above rim - margin
    assert (check.within_footprint, check.inside_bowl, check.success) == (True, False, False)


def test_next_to_the_bowl_on_the_table_is_low_but_outside_the_footprint():
    check = judge_in_bowl(obj(0.50, 0.33, 0.625), BOWL, TOL, MARGIN)
    assert (check.within_footprint, check.inside_bowl, check.success) == (False, True, False)


def test_far_and_high_fails_both():
    check = judge_in_bowl(obj(0.30, -0.2, 0.80), BOWL, TOL, MARGIN)
    assert (check.within_footprint, check.inside_bowl, check.success) == (False, False, False)


def test_footprint_bound_is_the_smaller_of_tolerance_and_rim_radius_and_strict():
    small = Box((0.47, 0.17, 0.625), (0.53, 0.23, 0.68))                  # rim radius 3 cm < 6 cm
    assert judge_in_bowl(obj(0.5, 0.2 + 0.035, 0.64), small, TOL, MARGIN).within_footprint is False
    assert judge_in_bowl(obj(0.5, 0.2 + 0.035, 0.64), BOWL, TOL, MARGIN).within_footprint is True
    check = judge_in_bowl(obj(0.5, 0.2 + 0.025, 0.64), small, TOL, MARGIN)
    assert check.footprint_radius == pytest.approx(0.03) and check.within_footprint is True


def test_table_point_target_checks_only_the_footprint():
    assert judge_at_point(obj(0.5, 0.2, 0.625), (0.52, 0.2), TOL).success is True
    assert judge_at_point(obj(0.5, 0.2, 0.625), (0.58, 0.2), TOL).success is False


def test_report_form_is_json_ready():
    import json
    check = judge_in_bowl(obj(0.51, 0.21, 0.64), BOWL, TOL, MARGIN)
    assert json.loads(json.dumps(check.as_dict()))["success"] is True
    assert "within_footprint=True" in check.summary() and "inside_bowl=True" in check.summary()
