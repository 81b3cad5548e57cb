"""Pure stacking logic: set-up, geometry, the three checks, bookkeeping."""
from __future__ import annotations

import math

import pytest

from robot_tasks.tasks.stacking import plan
from robot_tasks.tasks.world_view import Seen

TABLE = 0.625
SIZE = 0.05


def seen_cubes(**xy):
    return {f"{c}_cube": Seen(f"{c}_cube", (x, y, TABLE + SIZE / 2)) for c, (x, y) in xy.items()}


def started():
    seen = seen_cubes(red=(0.4, 0.2), blue=(0.6, -0.2), green=(0.4, -0.25), yellow=(0.62, 0.25))
    return plan.start_stacking(seen, plan.DEFAULT_ORDER, SIZE)


@pytest.fixture
def layout():
    return started()[0]


def test_parse_order_accepts_text_and_lists_and_rejects_duplicates():
    assert plan.parse_order(" red_cube; blue_cube ;") == ("red_cube", "blue_cube")
    assert plan.parse_order(["a", "b"]) == ("a", "b")
    with pytest.raises(plan.StackingError, match="twice"):
        plan.parse_order("a;b;a")
    with pytest.raises(plan.StackingError, match="empty"):
        plan.parse_order(" ; ")


def test_start_records_spawns_table_height_and_a_free_base():
    layout, spawns = started()
    assert spawns["blue_cube"] == pytest.approx((0.6, -0.2, TABLE + SIZE / 2))
    assert layout.table_z == pytest.approx(TABLE)
    assert layout.base_xy == (0.5, 0.0)  # first candidate, 12 cm clear of every cube
    assert layout.order == plan.DEFAULT_ORDER


def test_the_layout_cannot_be_changed(layout):
    with pytest.raises(AttributeError):
        layout.base_xy = (0.0, 0.0)


def test_start_fails_naming_the_cubes_perception_misses():
    seen = seen_cubes(red=(0.4, 0.2), blue=(0.6, -0.2))
    with pytest.raises(plan.StackingError, match="green_cube, yellow_cube"):
        plan.start_stacking(seen, plan.DEFAULT_ORDER)


def test_choose_stack_base_skips_occupied_candidates():
    cubes = [(0.5, 0.05, 0.65)]
    assert plan.choose_stack_base(cubes) == (0.45, 0.20)
    with pytest.raises(plan.StackingError, match="no free place"):
        plan.choose_stack_base(cubes, candidates=[(0.5, 0.0)])


def test_start_uses_a_given_base_and_the_median_table_height():
    seen = seen_cubes(red=(0.4, 0.2), blue=(0.6, -0.2))
    seen["blue_cube"] = Seen("blue_cube", (0.6, -0.2, TABLE + 0.2))  # sitting on something
    seen["green_cube"] = Seen("green_cube", (0.5, 0.3, TABLE + SIZE / 2))
    layout, _ = plan.start_stacking(seen, "red_cube;blue_cube;green_cube", SIZE, base_xy=(0.3, 0.1))
    assert layout.base_xy == (0.3, 0.1)
    assert layout.table_z == pytest.approx(TABLE)


def test_slots_rise_one_cube_per_level(layout):
    assert plan.slot_position(layout, (), 0) == pytest.approx((0.5, 0.0, TABLE + 0.025))
    assert plan.slot_position(layout, (), 3) == pytest.approx((0.5, 0.0, TABLE + 0.175))


def test_carry_height_clears_a_full_stack(layout):
    held_bottom = plan.carry_height(layout) - SIZE / 2
    assert held_bottom >= TABLE + 4 * SIZE + layout.heights.carry_clearance - 1e-9


@pytest.mark.parametrize("yaw, expected", [(0.0, 0.0), (0.3, 0.3), (math.pi / 2, 0.0), (-2.0, -2.0 + math.pi / 2),
                                           (math.pi, 0.0), (0.8, 0.8 - math.pi / 2)])
def test_grasp_yaw_folds_into_a_quarter_turn(yaw, expected):
    assert plan.grasp_yaw(yaw) == pytest.approx(expected)
    assert -math.pi / 4 - 1e-9 <= plan.grasp_yaw(yaw) <= math.pi / 4 + 1e-9


def test_top_down_pose_points_the_tool_z_axis_down():
    pose = plan.top_down_pose((0.1, 0.2, 0.3), yaw=0.4)
    qx, qy, qz, qw = pose["qx"], pose["qy"], pose["qz"], pose["qw"]
    # third column of the rotation matrix = tool z in world
    z_axis = (2 * (qx * qz + qw * qy), 2 * (qy * qz - qw * qx), 1 - 2 * (qx * qx + qy * qy))
    assert z_axis == pytest.approx((0, 0, -1))
    x_axis = (1 - 2 * (qy * qy + qz * qz), 2 * (qx * qy + qw * qz), 2 * (qx * qz - qw * qy))
    assert x_axis == pytest.approx((math.cos(0.4), math.sin(0.4), 0))
    assert pose["frame_id"] == "world" and (pose["x"], pose["y"], pose["z"]) == (0.1, 0.2, 0.3)


def test_pick_targets_are_above_and_at_the_cube(layout):
    cube = Seen("red_cube", (0.4, 0.2, TABLE + 0.025), yaw=1.0)
    targets = plan.pick_targets(layout, cube)
    pre, grasp = targets["pregrasp_pose"], targets["grasp_pose"]
    assert (pre["x"], pre["y"], pre["z"]) == pytest.approx((0.4, 0.2, TABLE + 0.025 + 0.10))
    assert (grasp["x"], grasp["y"], grasp["z"]) == pytest.approx((0.4, 0.2, TABLE + 0.025))
    assert pre["qy"] == pytest.approx(math.sin(plan.grasp_yaw(1.0) / 2))


def test_place_targets_go_up_across_and_down_to_the_next_slot(layout):
    t = plan.place_targets(layout, ("red_cube",), (0.6, -0.2, TABLE + 0.025))
    carry = plan.carry_height(layout)
    assert (t["lift_pose"]["x"], t["lift_pose"]["y"], t["lift_pose"]["z"]) == pytest.approx((0.6, -0.2, carry))
    assert (t["transport_pose"]["x"], t["transport_pose"]["y"], t["transport_pose"]["z"]) == pytest.approx(
        (0.5, 0.0, carry))
    assert t["lower_pose"]["z"] == pytest.approx(TABLE + 0.075 + layout.heights.place_gap)
    assert t["retract_pose"]["z"] == pytest.approx(TABLE + 0.075 + 0.10)


def test_carry_targets_lead_to_a_spot_on_the_table(layout):
    t = plan.carry_targets(layout, (0.5, 0.0, TABLE + 0.2), (0.4, -0.25, TABLE + 0.025))
    assert (t["lower_pose"]["x"], t["lower_pose"]["y"]) == pytest.approx((0.4, -0.25))
    assert t["lift_pose"]["z"] == pytest.approx(plan.carry_height(layout))


def test_lift_never_goes_down(layout):
    t = plan.place_targets(layout, (), (0.5, 0.0, 2.0))
    assert t["lift_pose"]["z"] == 2.0


def test_next_cube_follows_the_order(layout):
    assert plan.next_cube(layout, ()) == "red_cube"
    assert plan.next_cube(layout, ("red_cube", "blue_cube")) == "green_cube"
    assert not plan.stack_complete(layout, ("red_cube", "blue_cube"))
    assert plan.next_cube(layout, plan.DEFAULT_ORDER) is None and plan.stack_complete(layout, plan.DEFAULT_ORDER)
    assert not plan.stack_complete(layout, ("blue_cube", "red_cube", "green_cube", "yellow_cube"))


def stacked_seen(layout, n):
    return {label: Seen(label, plan.slot_position(layout, (), level)) for level, label in enumerate(layout.order[:n])}


THREE = ("red_cube", "blue_cube", "green_cube")


def test_lowest_displaced_finds_the_lowest_moved_cube(layout):
    seen = stacked_seen(layout, 3)
    assert plan.lowest_displaced(layout, THREE, seen) is None
    x, y, z = seen["green_cube"].position
    seen["green_cube"] = Seen("green_cube", (x + 0.1, y, TABLE + 0.025))
    assert plan.lowest_displaced(layout, THREE, seen) == 2
    x, y, z = seen["blue_cube"].position
    seen["blue_cube"] = Seen("blue_cube", (x, y + 0.031, z))
    assert plan.lowest_displaced(layout, THREE, seen) == 1
    assert plan.lowest_displaced(layout, THREE, seen, tolerance=0.05) == 2


def test_a_stacked_cube_not_seen_is_not_displaced(layout):
    seen = stacked_seen(layout, 2)
    del seen["red_cube"]
    assert plan.lowest_displaced(layout, THREE[:2], seen) is None


def test_unstack_displaced_forgets_it_and_everything_above(layout):
    seen = stacked_seen(layout, 3)
    seen["blue_cube"] = Seen("blue_cube", (0.3, 0.3, TABLE + 0.025))
    given = list(THREE)
    assert plan.unstack_displaced(layout, given, seen) == (("red_cube",), ("blue_cube", "green_cube"))
    assert given == list(THREE)                       # what it was given is not changed
    assert plan.unstack_displaced(layout, ("red_cube",), seen) == (("red_cube",), ())


@pytest.mark.parametrize("moved, expected", [(0.0, False), (0.049, False), (0.051, True), (0.2, True)])
def test_moved_since_seen_threshold_is_5_cm(moved, expected):
    start = (0.4, 0.2, 0.65)
    assert plan.moved_since_seen(start, Seen("c", (0.4 + moved, 0.2, 0.65))) is expected


def test_moved_since_seen_without_evidence_is_false():
    assert plan.moved_since_seen(None, Seen("c", (1, 1, 1))) is False
    assert plan.moved_since_seen((0, 0, 0), None) is False


@pytest.mark.parametrize("gap, expected", [(0.0, False), (0.099, False), (0.101, True), (0.5, True)])
def test_lost_grip_threshold_is_10_cm(gap, expected):
    tool = (0.5, 0.0, 0.9)
    assert plan.lost_grip(Seen("c", (0.5, 0.0, 0.9 - gap)), tool) is expected


def test_lost_grip_without_evidence_is_false():
    assert plan.lost_grip(None, (0, 0, 0)) is False
    assert plan.lost_grip(Seen("c", (1, 1, 1)), None) is False


HISTORY = [(10.0, (0.0, 0.0, 1.0)), (10.1, (0.1, 0.0, 1.0)), (10.3, (0.1, 0.2, 1.0))]


@pytest.mark.parametrize("stamp, expected", [
    (None, (0.1, 0.2, 1.0)),            # no image time: the latest tool position
    (11.0, (0.1, 0.2, 1.0)),            # newer than the history: the latest
    (10.05, (0.05, 0.0, 1.0)),          # between samples: interpolated
    (10.2, (0.1, 0.1, 1.0)),
    (10.0, (0.0, 0.0, 1.0)),
    (9.97, (0.0, 0.0, 1.0)),            # just before the history, within the slack
    (9.9, None),                        # older than the history: no evidence
])
def test_tool_position_at(stamp, expected):
    got = plan.tool_position_at(HISTORY, stamp)
    assert got == (None if expected is None else pytest.approx(expected))


def test_tool_position_at_empty_history():
    assert plan.tool_position_at([], 10.0) is None


def test_higher_slots_follow_the_cube_below_as_seen(layout):
    stacked = ("red_cube", "blue_cube")
    seen = {"red_cube": Seen("red_cube", (0.52, 0.01, TABLE + 0.025)),
            "blue_cube": Seen("blue_cube", (0.53, 0.015, TABLE + 0.075))}
    assert plan.slot_position(layout, stacked, 0, seen) == pytest.approx((0.5, 0.0, TABLE + 0.025))   # the base
    assert plan.slot_position(layout, stacked, 1, seen) == pytest.approx((0.52, 0.01, TABLE + 0.075))
    assert plan.slot_position(layout, stacked, 2, seen) == pytest.approx((0.53, 0.015, TABLE + 0.125))
    assert plan.lowest_displaced(layout, stacked, seen) is None      # nudged 2 cm, each on the one below
    t = plan.place_targets(layout, stacked, (0.4, 0.2, 0.7), seen)
    assert (t["lower_pose"]["x"], t["lower_pose"]["y"]) == pytest.approx((0.53, 0.015))
    seen["blue_cube"] = Seen("blue_cube", (0.56, 0.01, TABLE + 0.075))   # 4 cm off red
    assert plan.lowest_displaced(layout, stacked, seen) == 1


def test_an_unseen_cube_under_a_displaced_one_counts_as_displaced(layout):
    seen = stacked_seen(layout, 3)
    del seen["blue_cube"]                                           # fell off the table
    seen["green_cube"] = Seen("green_cube", plan.slot_position(layout, THREE, 1))   # sits on red now
    assert plan.lowest_displaced(layout, THREE, seen) == 1
    assert plan.unstack_displaced(layout, THREE, seen) == (("red_cube",), ("blue_cube", "green_cube"))


def test_low_confidence_detections_are_no_evidence_of_displacement(layout):
    seen = stacked_seen(layout, 2)
    seen["red_cube"] = Seen("red_cube", (0.45, 0.05, TABLE + 0.025), confidence=0.5)   # a side-only fit
    assert plan.lowest_displaced(layout, THREE[:2], seen) is None
    seen["red_cube"] = Seen("red_cube", (0.45, 0.05, TABLE + 0.025), confidence=0.9)
    assert plan.lowest_displaced(layout, THREE[:2], seen) == 0
