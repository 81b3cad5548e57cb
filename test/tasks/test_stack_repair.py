"""Bookkeeping repairs between transfers: booking cubes already in place, clearing cubes
in the stack's way, parking spots, and the refined displaced-level rule."""
from __future__ import annotations

import pytest

from robot_tasks.tasks import stack_repair as repair
from robot_tasks.tasks import stacking_plan as plan
from robot_tasks.tasks.world_view import Seen

TABLE = 0.625
SIZE = 0.05
ON_TABLE = TABLE + SIZE / 2


@pytest.fixture
def memory():
    seen = {f"{c}_cube": Seen(f"{c}_cube", (x, y, ON_TABLE))
            for c, (x, y) in dict(red=(0.4, 0.2), blue=(0.6, -0.2), green=(0.4, -0.25), yellow=(0.62, 0.25)).items()}
    return plan.start_stacking(seen, plan.DEFAULT_ORDER, SIZE)


def at_level(memory, label, level, dx=0.0, confidence=1.0):
    x, y, z = plan.slot_position(memory, level)
    return Seen(label, (x + dx, y, z), confidence=confidence)


def on_table(label, x, y):
    return Seen(label, (x, y, ON_TABLE))


def test_a_cube_already_at_its_slot_is_booked_in_place(memory):
    memory.stacked = ["red_cube"]
    seen = {"red_cube": at_level(memory, "red_cube", 0), "blue_cube": at_level(memory, "blue_cube", 1),
            "green_cube": on_table("green_cube", 0.4, -0.25)}
    assert repair.book_in_place(memory, seen) == ["blue_cube"]
    assert memory.stacked == ["red_cube", "blue_cube"]
    assert memory.events[-1] == "in_place: blue_cube already at level 1"


def test_off_slot_held_suspect_and_vague_cubes_are_not_booked(memory):
    seen = {"red_cube": at_level(memory, "red_cube", 0, dx=0.04)}
    assert repair.book_in_place(memory, seen) == []
    seen = {"red_cube": at_level(memory, "red_cube", 0, confidence=0.5)}
    assert repair.book_in_place(memory, seen) == []
    seen = {"red_cube": at_level(memory, "red_cube", 0)}
    memory.suspect.add("red_cube")
    assert repair.book_in_place(memory, seen) == []
    memory.suspect.clear()
    memory.holding = "red_cube"
    assert repair.book_in_place(memory, seen) == []
    assert memory.stacked == []


def test_a_hidden_bottom_cube_is_booked_under_the_cube_it_holds_up(memory):
    # red under blue: the camera sees only blue, standing at level 1 on the base
    seen = {"blue_cube": at_level(memory, "blue_cube", 1), "green_cube": on_table("green_cube", 0.4, -0.25)}
    assert repair.book_in_place(memory, seen) == ["red_cube", "blue_cube"]
    assert memory.events[-1] == "in_place: red_cube, blue_cube already at level 0-1"


def test_no_hidden_booking_when_the_cube_above_is_not_at_its_own_level(memory):
    seen = {"green_cube": at_level(memory, "green_cube", 1)}      # green on red: blue is not between
    assert repair.book_in_place(memory, seen) == []
    seen = {"blue_cube": at_level(memory, "blue_cube", 1), "red_cube": on_table("red_cube", 0.35, 0.25)}
    assert repair.book_in_place(memory, seen) == []               # red is seen elsewhere


def test_a_wrong_cube_on_the_stack_blocks_the_next_level(memory):
    memory.stacked = ["red_cube"]
    seen = {"red_cube": at_level(memory, "red_cube", 0), "green_cube": at_level(memory, "green_cube", 1),
            "blue_cube": on_table("blue_cube", 0.6, -0.2)}
    assert repair.blocking_cube(memory, seen) == "green_cube"
    seen["green_cube"] = on_table("green_cube", 0.4, -0.25)
    assert repair.blocking_cube(memory, seen) is None
    seen["blue_cube"] = at_level(memory, "blue_cube", 1, dx=0.02)  # the next cube, a bit off: not a blocker
    assert repair.blocking_cube(memory, seen) is None


def test_the_highest_cube_resting_on_something_is_cleared_when_the_next_cube_is_hidden(memory):
    seen = {"blue_cube": Seen("blue_cube", (0.35, -0.2, ON_TABLE + SIZE)),    # on top of (hidden) red
            "green_cube": Seen("green_cube", (0.35, -0.2, ON_TABLE + 2 * SIZE)),
            "yellow_cube": on_table("yellow_cube", 0.62, 0.25)}
    assert repair.blocking_cube(memory, seen) == "green_cube"
    seen["red_cube"] = on_table("red_cube", 0.6, 0.1)                          # red is seen: nothing hides it
    assert repair.blocking_cube(memory, seen) is None


def test_parking_goes_to_the_spawn_or_a_free_spot_near_it(memory):
    spawn = memory.spawns["green_cube"]
    seen = {"red_cube": on_table("red_cube", 0.4, 0.2)}
    assert repair.parking_spot(memory, seen, "green_cube") == spawn
    seen["blue_cube"] = on_table("blue_cube", spawn[0] + 0.03, spawn[1])       # knocked onto green's spawn
    x, y, z = repair.parking_spot(memory, seen, "green_cube")
    assert z == pytest.approx(ON_TABLE)
    for p in [c.position for c in seen.values()] + [(*memory.base_xy, 0.0)]:
        assert ((x - p[0]) ** 2 + (y - p[1]) ** 2) ** 0.5 >= repair.PARK_CLEARANCE - 1e-9


def test_a_cube_sunk_onto_a_lower_level_keeps_the_cubes_under_it_booked(memory):
    # green (booked level 2) stands on red now: blue is gone, red holds green up
    memory.stacked = ["red_cube", "blue_cube", "green_cube"]
    seen = {"green_cube": at_level(memory, "green_cube", 1)}
    assert plan.lowest_displaced(memory, seen) == 1
    assert plan.unstack_displaced(memory, seen) == ["blue_cube", "green_cube"]
    assert memory.stacked == ["red_cube"]


def test_a_cube_knocked_off_the_column_unbooks_from_its_own_level(memory):
    memory.stacked = ["red_cube", "blue_cube", "green_cube"]
    seen = {"green_cube": on_table("green_cube", 0.35, -0.3)}        # red and blue hidden: no evidence
    assert plan.lowest_displaced(memory, seen) == 2


def test_a_suspect_is_unbooked_with_everything_above_and_not_booked_in_place_again(memory):
    memory.stacked = ["red_cube", "blue_cube", "green_cube"]
    memory.suspect.add("blue_cube")
    assert repair.unbook_suspects(memory) == ["blue_cube", "green_cube"]
    assert memory.stacked == ["red_cube"]
    assert memory.events[-1] == "stack_suspect: blue_cube was seen displaced; re-stack blue_cube, green_cube"
    seen = {"red_cube": at_level(memory, "red_cube", 0), "blue_cube": at_level(memory, "blue_cube", 1),
            "green_cube": at_level(memory, "green_cube", 2)}
    assert repair.book_in_place(memory, seen) == []                 # blue must be set down again first
    assert repair.unbook_suspects(memory) == []


def test_a_cube_lying_on_the_next_cube_is_cleared_first(memory):
    seen = {"red_cube": on_table("red_cube", 0.62, 0.1),
            "green_cube": Seen("green_cube", (0.63, 0.11, ON_TABLE + SIZE)),     # fell onto red
            "blue_cube": on_table("blue_cube", 0.6, -0.2)}
    assert repair.blocking_cube(memory, seen) == "green_cube"
    seen["green_cube"] = on_table("green_cube", 0.4, -0.25)
    assert repair.blocking_cube(memory, seen) is None
