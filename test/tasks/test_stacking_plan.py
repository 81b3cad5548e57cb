"""Pure stacking logic: set-up, geometry, the three checks, bookkeeping."""
from __future__ import annotations

import math

import pytest

from robot_tasks.tasks import stacking_plan as plan
from robot_tasks.tasks.world_view import Seen

TABLE = 0.625
SIZE = 0.05


def seen_cubes(**xy):
    return {f"{c}_cube": Seen(f"{c}_cube", (x, y, TABLE + SIZE / 2)) for c, (x, y) in xy.items()}


@pytest.fixture
def memory():
    seen = seen_cubes(red=(0.4, 0.2), blue=(0.6, -0.2), green=(0.4, -0.25), yellow=(0.62, 0.25))
    return plan.start_stacking(seen, plan.DEFAULT_ORDER, SIZE)


def test_parse_order_accepts_text_and_lists_and_rejects_duplicates():
    assert plan.parse_order(" red_cube; blue_cube ;") == ("red_cube", "blue_cube")
    assert plan.parse_order(["a", "b"]) == ("a", "b")
    with pytest.raises(plan.StackingError, match="twice"):
        plan.parse_order("a;b;a")
    with pytest.raises(plan.StackingError, match="empty"):
        plan.parse_order(" ; ")


def test_start_records_spawns_table_height_and_a_free_base(memory):
    assert memory.spawns["blue_cube"] == pytest.approx((0.6, -0.2, TABLE + SIZE / 2))
    assert memory.table_z == pytest.approx(TABLE)
    assert memory.base_xy == (0.5, 0.0)  # first candidate, 12 cm clear of every cube
    assert memory.stacked == [] and memory.holding is None


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
    memory = plan.start_stacking(seen, "red_cube;blue_cube;green_cube", SIZE, base_xy=(0.3, 0.1))
    assert memory.base_xy == (0.3, 0.1)
    assert memory.table_z == pytest.approx(TABLE)


def test_slots_rise_one_cube_per_level(memory):
    assert plan.slot_position(memory, 0) == pytest.approx((0.5, 0.0, TABLE + 0.025))
    assert plan.slot_position(memory, 3) == pytest.approx((0.5, 0.0, TABLE + 0.175))


def test_carry_height_clears_a_full_stack(memory):
    held_bottom = plan.carry_height(memory) - SIZE / 2
    assert held_bottom >= TABLE + 4 * SIZE + memory.heights.carry_clearance - 1e-9


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


def test_pick_targets_are_above_and_at_the_cube(memory):
    cube = Seen("red_cube", (0.4, 0.2, TABLE + 0.025), yaw=1.0)
    targets = plan.pick_targets(memory, cube)
    pre, grasp = targets["pregrasp_pose"], targets["grasp_pose"]
    assert (pre["x"], pre["y"], pre["z"]) == pytest.approx((0.4, 0.2, TABLE + 0.025 + 0.10))
    assert (grasp["x"], grasp["y"], grasp["z"]) == pytest.approx((0.4, 0.2, TABLE + 0.025))
    assert pre["qy"] == pytest.approx(math.sin(plan.grasp_yaw(1.0) / 2))


def test_place_targets_go_up_across_and_down_to_the_next_slot(memory):
    memory.stacked = ["red_cube"]
    t = plan.place_targets(memory, (0.6, -0.2, TABLE + 0.025))
    carry = plan.carry_height(memory)
    assert (t["lift_pose"]["x"], t["lift_pose"]["y"], t["lift_pose"]["z"]) == pytest.approx((0.6, -0.2, carry))
    assert (t["transport_pose"]["x"], t["transport_pose"]["y"], t["transport_pose"]["z"]) == pytest.approx(
        (0.5, 0.0, carry))
    assert t["lower_pose"]["z"] == pytest.approx(TABLE + 0.075 + memory.heights.place_gap)
    assert t["retract_pose"]["z"] == pytest.approx(TABLE + 0.075 + 0.10)


def test_return_targets_lead_back_to_the_spawn(memory):
    t = plan.return_targets(memory, "green_cube", (0.5, 0.0, TABLE + 0.2))
    assert (t["lower_pose"]["x"], t["lower_pose"]["y"]) == pytest.approx((0.4, -0.25))
    assert t["lift_pose"]["z"] == pytest.approx(plan.carry_height(memory))


def test_lift_never_goes_down(memory):
    t = plan.place_targets(memory, (0.5, 0.0, 2.0))
    assert t["lift_pose"]["z"] == 2.0


def test_next_cube_follows_the_order(memory):
    assert plan.next_cube(memory) == "red_cube"
    memory.stacked = ["red_cube", "blue_cube"]
    assert plan.next_cube(memory) == "green_cube"
    memory.stacked = list(plan.DEFAULT_ORDER)
    assert plan.next_cube(memory) is None and memory.complete


def stacked_seen(memory, n):
    return {label: Seen(label, plan.slot_position(memory, level)) for level, label in enumerate(memory.order[:n])}


def test_lowest_displaced_finds_the_lowest_moved_cube(memory):
    memory.stacked = ["red_cube", "blue_cube", "green_cube"]
    seen = stacked_seen(memory, 3)
    assert plan.lowest_displaced(memory, seen) is None
    x, y, z = seen["green_cube"].position
    seen["green_cube"] = Seen("green_cube", (x + 0.1, y, TABLE + 0.025))
    assert plan.lowest_displaced(memory, seen) == 2
    x, y, z = seen["blue_cube"].position
    seen["blue_cube"] = Seen("blue_cube", (x, y + 0.031, z))
    assert plan.lowest_displaced(memory, seen) == 1
    assert plan.lowest_displaced(memory, seen, tolerance=0.05) == 2


def test_a_stacked_cube_not_seen_is_not_displaced(memory):
    memory.stacked = ["red_cube", "blue_cube"]
    seen = stacked_seen(memory, 2)
    del seen["red_cube"]
    assert plan.lowest_displaced(memory, seen) is None


def test_unstack_displaced_forgets_it_and_everything_above(memory):
    memory.stacked = ["red_cube", "blue_cube", "green_cube"]
    seen = stacked_seen(memory, 3)
    seen["blue_cube"] = Seen("blue_cube", (0.3, 0.3, TABLE + 0.025))
    assert plan.unstack_displaced(memory, seen) == ["blue_cube", "green_cube"]
    assert memory.stacked == ["red_cube"]
    assert memory.events[-1].startswith("stack_invalid: blue_cube displaced from level 1")
    assert plan.unstack_displaced(memory, seen) == []


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


def test_event_log_is_bounded(memory):
    for i in range(500):
        memory.note(str(i))
    assert len(memory.events) == 200 and memory.events[-1] == "499"


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


def test_higher_slots_follow_the_cube_below_as_seen(memory):
    memory.stacked = ["red_cube", "blue_cube"]
    seen = {"red_cube": Seen("red_cube", (0.52, 0.01, TABLE + 0.025)),
            "blue_cube": Seen("blue_cube", (0.53, 0.015, TABLE + 0.075))}
    assert plan.slot_position(memory, 0, seen) == pytest.approx((0.5, 0.0, TABLE + 0.025))   # the base
    assert plan.slot_position(memory, 1, seen) == pytest.approx((0.52, 0.01, TABLE + 0.075))
    assert plan.slot_position(memory, 2, seen) == pytest.approx((0.53, 0.015, TABLE + 0.125))
    assert plan.lowest_displaced(memory, seen) is None      # nudged 2 cm, each on the one below
    t = plan.place_targets(memory, (0.4, 0.2, 0.7), seen)
    assert (t["lower_pose"]["x"], t["lower_pose"]["y"]) == pytest.approx((0.53, 0.015))
    seen["blue_cube"] = Seen("blue_cube", (0.56, 0.01, TABLE + 0.075))   # 4 cm off red
    assert plan.lowest_displaced(memory, seen) == 1


def test_an_unseen_cube_under_a_displaced_one_counts_as_displaced(memory):
    memory.stacked = ["red_cube", "blue_cube", "green_cube"]
    seen = stacked_seen(memory, 3)
    del seen["blue_cube"]                                           # fell off the table
    seen["green_cube"] = Seen("green_cube", plan.slot_position(memory, 1))   # sits on red now
    assert plan.lowest_displaced(memory, seen) == 1
    assert plan.unstack_displaced(memory, seen) == ["blue_cube", "green_cube"]


def test_low_confidence_detections_are_no_evidence_of_displacement(memory):
    memory.stacked = ["red_cube", "blue_cube"]
    seen = stacked_seen(memory, 2)
    seen["red_cube"] = Seen("red_cube", (0.45, 0.05, TABLE + 0.025), confidence=0.5)   # a side-only fit
    assert plan.lowest_displaced(memory, seen) is None
    seen["red_cube"] = Seen("red_cube", (0.45, 0.05, TABLE + 0.025), confidence=0.9)
    assert plan.lowest_displaced(memory, seen) == 0
