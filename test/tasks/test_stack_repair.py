"""Bookkeeping repairs between transfers: booking cubes already in place, clearing cubes
in the stack's way, parking spots, and the refined displaced-level rule. Each function
takes the task's entries (`layout`, `stacked`, `suspects`, `holding`, `spawns`) and
returns new values."""
from __future__ import annotations

import pytest

from robot_tasks.tasks.stacking import plan, repair
from robot_tasks.tasks.world_view import Seen

TABLE = 0.625
SIZE = 0.05
ON_TABLE = TABLE + SIZE / 2
THREE = ("red_cube", "blue_cube", "green_cube")


def started():
    seen = {f"{c}_cube": Seen(f"{c}_cube", (x, y, ON_TABLE))
            for c, (x, y) in dict(red=(0.4, 0.2), blue=(0.6, -0.2), green=(0.4, -0.25), yellow=(0.62, 0.25)).items()}
    return plan.start_stacking(seen, plan.DEFAULT_ORDER, SIZE)


@pytest.fixture
def layout():
    return started()[0]


def at_level(layout, label, level, dx=0.0, confidence=1.0):
    x, y, z = plan.slot_position(layout, (), level)
    return Seen(label, (x + dx, y, z), confidence=confidence)


def on_table(label, x, y):
    return Seen(label, (x, y, ON_TABLE))


def booked(layout, stacked, seen, suspects=(), holding=""):
    return repair.book_in_place(layout, stacked, suspects, holding, seen)


def test_a_cube_already_at_its_slot_is_booked_in_place(layout):
    seen = {"red_cube": at_level(layout, "red_cube", 0), "blue_cube": at_level(layout, "blue_cube", 1),
            "green_cube": on_table("green_cube", 0.4, -0.25)}
    assert booked(layout, ("red_cube",), seen) == (("red_cube", "blue_cube"), [(1, ("blue_cube",))])
    stacked, notes = repair.reconcile(layout, ("red_cube",), (), "", seen)
    assert stacked == ("red_cube", "blue_cube") and notes == ["in_place: blue_cube already at level 1"]


def test_off_slot_held_suspect_and_vague_cubes_are_not_booked(layout):
    nothing = ((), [])
    assert booked(layout, (), {"red_cube": at_level(layout, "red_cube", 0, dx=0.04)}) == nothing
    assert booked(layout, (), {"red_cube": at_level(layout, "red_cube", 0, confidence=0.5)}) == nothing
    seen = {"red_cube": at_level(layout, "red_cube", 0)}
    assert booked(layout, (), seen, suspects=("red_cube",)) == nothing
    assert booked(layout, (), seen, holding="red_cube") == nothing
    assert booked(layout, (), seen) == (("red_cube",), [(0, ("red_cube",))])


def test_a_hidden_bottom_cube_is_booked_under_the_cube_it_holds_up(layout):
    # red under blue: the camera sees only blue, standing at level 1 on the base
    seen = {"blue_cube": at_level(layout, "blue_cube", 1), "green_cube": on_table("green_cube", 0.4, -0.25)}
    stacked, notes = repair.reconcile(layout, (), (), "", seen)
    assert stacked == ("red_cube", "blue_cube")
    assert notes == ["in_place: red_cube, blue_cube already at level 0-1"]


def test_no_hidden_booking_when_the_cube_above_is_not_at_its_own_level(layout):
    seen = {"green_cube": at_level(layout, "green_cube", 1)}      # green on red: blue is not between
    assert booked(layout, (), seen) == ((), [])
    seen = {"blue_cube": at_level(layout, "blue_cube", 1), "red_cube": on_table("red_cube", 0.35, 0.25)}
    assert booked(layout, (), seen) == ((), [])                   # red is seen elsewhere


def test_a_wrong_cube_on_the_stack_blocks_the_next_level(layout):
    stacked = ("red_cube",)
    seen = {"red_cube": at_level(layout, "red_cube", 0), "green_cube": at_level(layout, "green_cube", 1),
            "blue_cube": on_table("blue_cube", 0.6, -0.2)}
    assert repair.blocking_cube(layout, stacked, "", seen) == "green_cube"
    assert repair.blocking_cube(layout, stacked, "green_cube", seen) is None   # the held cube is not in the way
    seen["green_cube"] = on_table("green_cube", 0.4, -0.25)
    assert repair.blocking_cube(layout, stacked, "", seen) is None
    seen["blue_cube"] = at_level(layout, "blue_cube", 1, dx=0.02)  # the next cube, a bit off: not a blocker
    assert repair.blocking_cube(layout, stacked, "", seen) is None


def test_the_highest_cube_resting_on_something_is_cleared_when_the_next_cube_is_hidden(layout):
    seen = {"blue_cube": Seen("blue_cube", (0.35, -0.2, ON_TABLE + SIZE)),    # on top of (hidden) red
            "green_cube": Seen("green_cube", (0.35, -0.2, ON_TABLE + 2 * SIZE)),
            "yellow_cube": on_table("yellow_cube", 0.62, 0.25)}
    assert repair.blocking_cube(layout, (), "", seen) == "green_cube"
    seen["red_cube"] = on_table("red_cube", 0.6, 0.1)                          # red is seen: nothing hides it
    assert repair.blocking_cube(layout, (), "", seen) is None


def test_parking_goes_to_the_spawn_or_a_free_spot_near_it():
    layout, spawns = started()
    spawn = spawns["green_cube"]
    seen = {"red_cube": on_table("red_cube", 0.4, 0.2)}
    assert repair.parking_spot(layout, spawns, seen, "green_cube") == spawn
    seen["blue_cube"] = on_table("blue_cube", spawn[0] + 0.03, spawn[1])       # knocked onto green's spawn
    x, y, z = repair.parking_spot(layout, spawns, seen, "green_cube")
    assert z == pytest.approx(ON_TABLE)
    for p in [c.position for c in seen.values()] + [(*layout.base_xy, 0.0)]:
        assert ((x - p[0]) ** 2 + (y - p[1]) ** 2) ** 0.5 >= repair.PARK_CLEARANCE - 1e-9


def test_a_cube_sunk_onto_a_lower_level_keeps_the_cubes_under_it_booked(layout):
    # green (booked level 2) stands on red now: blue is gone, red holds green up
    seen = {"green_cube": at_level(layout, "green_cube", 1)}
    assert plan.lowest_displaced(layout, THREE, seen) == 1
    stacked, notes = repair.unbook_displaced(layout, THREE, seen)
    assert stacked == ("red_cube",)
    assert notes == ["stack_invalid: blue_cube displaced from level 1; re-stack blue_cube, green_cube"]


def test_a_cube_knocked_off_the_column_unbooks_from_its_own_level(layout):
    seen = {"green_cube": on_table("green_cube", 0.35, -0.3)}        # red and blue hidden: no evidence
    assert plan.lowest_displaced(layout, THREE, seen) == 2


def test_a_suspect_is_unbooked_with_everything_above_and_not_booked_in_place_again(layout):
    suspects = ("blue_cube",)
    assert repair.unbook_suspects(THREE, suspects) == (("red_cube",), ("blue_cube", "green_cube"))
    seen = {"red_cube": at_level(layout, "red_cube", 0), "blue_cube": at_level(layout, "blue_cube", 1),
            "green_cube": at_level(layout, "green_cube", 2)}
    stacked, notes = repair.reconcile(layout, THREE, suspects, "", seen)
    assert stacked == ("red_cube",)                              # blue must be set down again first
    assert notes == ["stack_suspect: blue_cube was seen displaced; re-stack blue_cube, green_cube"]
    assert repair.unbook_suspects(stacked, suspects) == (("red_cube",), ())


def test_reconcile_unbooks_the_displaced_then_books_what_stands_in_place(layout):
    # blue knocked off; green fell straight onto red: un-book blue and green, nothing is re-booked
    seen = {"red_cube": at_level(layout, "red_cube", 0), "green_cube": at_level(layout, "green_cube", 1),
            "blue_cube": on_table("blue_cube", 0.3, 0.3)}
    stacked, notes = repair.reconcile(layout, THREE, (), "", seen)
    assert stacked == ("red_cube",)
    assert notes == ["stack_invalid: blue_cube displaced from level 1; re-stack blue_cube, green_cube"]
    assert repair.blocking_cube(layout, stacked, "", seen) == "green_cube"


def test_a_cube_lying_on_the_next_cube_is_cleared_first(layout):
    seen = {"red_cube": on_table("red_cube", 0.62, 0.1),
            "green_cube": Seen("green_cube", (0.63, 0.11, ON_TABLE + SIZE)),     # fell onto red
            "blue_cube": on_table("blue_cube", 0.6, -0.2)}
    assert repair.blocking_cube(layout, (), "", seen) == "green_cube"
    seen["green_cube"] = on_table("green_cube", 0.4, -0.25)
    assert repair.blocking_cube(layout, (), "", seen) is None
