"""Control flow of trees/franka_stacking.xml on the real engine, against a kinematic fake.

LOGIC TEST OF THE TREE, NOT A PHYSICS CLAIM: the stub leaves (stacking_fake_world.py)
move points around; they show which branches run, what is halted and retried, and that
the bookkeeping (the `stacked` entry, the task's log) ends with the cubes in order. Physics lives in the sim tests and the
end-to-end runs.
"""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from stacking_fake_world import SIZE, TABLE_Z, FakeWorld, collect_task_log, make_factory, run_tree, task_state

from robot_tasks.bt import NodeStatus

TREE = Path(__file__).resolve().parents[2] / "trees" / "franka_stacking.xml"
ORDER = ("red_cube", "blue_cube", "green_cube", "yellow_cube")
collect_task_log = pytest.fixture(autouse=True)(collect_task_log)


def build(world):
    tree = make_factory(world).create_tree_from_file(TREE)
    return tree


def assert_stacked_in_order(world, state):
    base = np.array(state.base_xy)
    for level, name in enumerate(ORDER):
        pos = world.cubes[name]
        assert np.linalg.norm(pos[:2] - base) < 0.01, f"{name} not on the stack: {pos}"
        assert abs(pos[2] - (TABLE_Z + SIZE * (level + 0.5))) < 0.005, f"{name} at the wrong level: {pos}"
    assert state.stacked == list(ORDER)
    assert world.holding is None and state.holding == ""


def free_spot(world, layout, near, avoid=()):
    """A table spot >= 12 cm from every cube and from the stack base, near `near`."""
    others = [c[:2] for n, c in world.cubes.items() if n not in avoid] + [np.array(layout.base_xy)]
    for radius in (0.12, 0.16, 0.2, 0.25):
        for angle in np.linspace(0, 2 * np.pi, 16, endpoint=False):
            xy = np.asarray(near[:2]) + radius * np.array([np.cos(angle), np.sin(angle)])
            if 0.3 <= xy[0] <= 0.7 and abs(xy[1]) <= 0.35 and all(np.linalg.norm(xy - o) >= 0.12 for o in others):
                return xy
    raise AssertionError("no free spot for the disturbance")


class Once:
    """A disturbance hook that fires once, the first tick `when(world)` is true."""

    def __init__(self, when, do):
        self.when, self.do, self.fired = when, do, False

    def __call__(self, world):
        if not self.fired and self.when(world):
            self.fired = True
            self.do(world)


@pytest.mark.parametrize("seed", range(8))
def test_undisturbed_run_stacks_all_four_in_order(seed):
    world = FakeWorld.seeded(seed, noise=0.002)
    tree = build(world)
    status, ticks = run_tree(tree, world)
    state = task_state(tree.root_blackboard)
    assert status is NodeStatus.SUCCESS, state.events
    assert_stacked_in_order(world, state)
    assert not any(e.startswith(("pickup_resync", "dropped", "stack_")) for e in state.events)
    # no motion was cut short
    assert not [entry for entry in world.log if entry.startswith("halted")]


@pytest.mark.parametrize("seed", [0, 3])
def test_cube_dragged_during_approach_restarts_pickup_from_pregrasp(seed):
    world = FakeWorld.seeded(seed)
    tree = build(world)
    board = tree.root_blackboard

    def drag_blue(w):
        w.drag("blue_cube", free_spot(w, board.get("layout"), w.cubes["blue_cube"]) - w.cubes["blue_cube"][:2])

    world.hooks.append(Once(lambda w: "approach" in w.running_moves and board.get("cube", None) == "blue_cube",
                            drag_blue))
    status, _ = run_tree(tree, world)
    state = task_state(board)
    assert status is NodeStatus.SUCCESS, state.events
    assert any(e.startswith("pickup_resync: blue_cube") for e in state.events)
    assert "halted approach" in world.log                      # the running motion was cancelled
    restart = world.log.index("halted approach")
    assert world.log[restart + 1] == "move pre_grasp"           # pickup restarted from pre-grasp
    assert_stacked_in_order(world, state)


def test_cube_dropped_during_transport_is_abandoned_and_picked_again():
    world = FakeWorld.seeded(1)
    tree = build(world)
    start = {}

    def halfway(w):
        if w.holding == "yellow_cube" and "transport" in w.running_moves:
            start.setdefault("xy", w.tool[:2].copy())
            return np.linalg.norm(w.tool[:2] - start["xy"]) > 0.05
        return False

    world.hooks.append(Once(halfway, lambda w: w.drop()))
    status, _ = run_tree(tree, world)
    state = task_state(tree.root_blackboard)
    assert status is NodeStatus.SUCCESS, state.events
    assert any(e.startswith("dropped: yellow_cube") for e in state.events)
    assert "halted transport" in world.log
    assert sum(e == "decide: yellow_cube -> level 3" for e in state.events) == 2
    assert_stacked_in_order(world, state)


def test_knocked_stack_returns_held_cube_then_restacks_the_displaced_one():
    world = FakeWorld.seeded(2)
    tree = build(world)
    board = tree.root_blackboard

    def knock_blue(w):
        spot = free_spot(w, board.get("layout"), w.cubes["blue_cube"])
        w.knock("blue_cube", [spot])

    world.hooks.append(Once(lambda w: w.holding == "green_cube" and "transport" in w.running_moves, knock_blue))
    status, _ = run_tree(tree, world)
    state = task_state(board)
    assert status is NodeStatus.SUCCESS, state.events
    events = state.events
    check = next(i for i, e in enumerate(events) if e.startswith("stack_check: blue_cube"))
    assert events[check + 1] == "returned: green_cube to its spawn"
    assert events[check + 2].startswith("stack_invalid: blue_cube displaced from level 1")
    assert events[check + 3] == "decide: blue_cube -> level 1"
    assert "move return_lower" in world.log and "release green_cube" in world.log
    assert_stacked_in_order(world, state)


def test_a_knock_too_late_to_see_leaves_a_wrong_cube_on_the_stack_which_is_cleared_off():
    """blue is knocked away after the last check before green's release: green lands on
    red. The next decision un-books blue and green (red still holds green up), moves
    green off the stack, then stacks blue, green and yellow."""
    world = FakeWorld.seeded(2)
    tree = build(world)
    board = tree.root_blackboard

    def lowered(w):
        return w.holding == "green_cube" and w.log[-1] == "move lower" and "lower" not in w.running_moves

    world.hooks.append(Once(lowered, lambda w: w.knock("blue_cube", [free_spot(w, board.get("layout"),
                                                                               w.cubes["blue_cube"])])))
    status, _ = run_tree(tree, world)
    state = task_state(board)
    assert status is NodeStatus.SUCCESS, state.events
    assert world.hooks[0].fired
    events = state.events
    assert "stack_invalid: blue_cube displaced from level 1; re-stack blue_cube, green_cube" in events
    clear = events.index("clear: green_cube is in the way of level 1; moving it off")
    assert events[clear + 1] == "cleared: green_cube set down off the stack"
    assert events[clear + 2] == "decide: blue_cube -> level 1"
    assert_stacked_in_order(world, state)


@pytest.mark.parametrize("failing, returned", [(["transport"], True), (["transport", "return_transport"], False)])
def test_a_failed_carry_motion_never_leaves_the_cube_in_hand(failing, returned):
    world = FakeWorld.seeded(3)
    tree = build(world)
    world.hooks.append(Once(lambda w: w.holding == "blue_cube", lambda w: w.fail_moves.extend(failing)))
    status, _ = run_tree(tree, world)
    state = task_state(tree.root_blackboard)
    assert status is NodeStatus.SUCCESS, state.events
    failed = world.log.index("failed transport")
    after = world.log[failed + 1:]
    if returned:
        assert after[:2] == ["move return_lift", "move return_transport"]
        assert "returned: blue_cube to its spawn" in state.events
    else:
        assert after[:2] == ["move return_lift", "move return_transport"] and "failed return_transport" in after
        assert "abandon: transfer of blue_cube" in state.events
    assert after.index("release blue_cube") < after.index("move pre_grasp")   # empty hand before the next pick
    assert_stacked_in_order(world, state)


def test_an_approach_without_a_straight_line_falls_back_to_a_joint_space_motion():
    world = FakeWorld.seeded(4)
    tree = build(world)
    board = tree.root_blackboard
    world.hooks.append(Once(lambda w: board.get("cube", None) == "green_cube",
                            lambda w: w.fail_moves.append("approach")))
    status, _ = run_tree(tree, world)
    state = task_state(board)
    assert status is NodeStatus.SUCCESS, state.events
    failed = world.log.index("failed approach")
    assert world.log[failed + 1] == "move approach_joint_space"
    assert world.log[failed + 2] == "grasp green_cube"
    assert_stacked_in_order(world, state)


def test_all_three_disturbances_in_one_run():
    world = FakeWorld.seeded(5, noise=0.002)
    tree = build(world)
    board = tree.root_blackboard
    world.hooks += [
        Once(lambda w: "approach" in w.running_moves and board.get("cube", None) == "red_cube",
             lambda w: w.drag("red_cube", free_spot(w, board.get("layout"), w.cubes["red_cube"])
                              - w.cubes["red_cube"][:2])),
        Once(lambda w: w.holding == "green_cube" and "transport" in w.running_moves,
             lambda w: w.knock("blue_cube", [free_spot(w, board.get("layout"), w.cubes["blue_cube"])])),
        Once(lambda w: w.holding == "yellow_cube" and "lift" in w.running_moves, lambda w: w.drop()),
    ]
    status, _ = run_tree(tree, world)
    state = task_state(board)
    assert status is NodeStatus.SUCCESS, state.events
    assert all(hook.fired for hook in world.hooks)
    for kind in ("pickup_resync", "stack_check", "dropped"):
        assert any(e.startswith(kind) for e in state.events), kind
    assert_stacked_in_order(world, state)


@pytest.mark.parametrize("seed", [0, 6])
def test_perception_latency_does_not_look_like_a_drop(seed):
    """Detections 10 ticks (0.2 s) old while the tool moves 4 cm a tick: the held cube is
    seen up to 40 cm behind the tool *now*, but where the tool was at the image's time."""
    world = FakeWorld.seeded(seed, latency_ticks=10)
    tree = build(world)
    status, _ = run_tree(tree, world)
    state = task_state(tree.root_blackboard)
    assert status is NodeStatus.SUCCESS, state.events
    assert not any(e.startswith("dropped") for e in state.events), state.events
    assert_stacked_in_order(world, state)


def test_a_real_drop_is_still_seen_through_latency():
    world = FakeWorld.seeded(1, latency_ticks=10)
    tree = build(world)
    world.hooks.append(Once(lambda w: w.holding == "blue_cube" and "transport" in w.running_moves,
                            lambda w: w.drop()))
    status, _ = run_tree(tree, world)
    state = task_state(tree.root_blackboard)
    assert status is NodeStatus.SUCCESS, state.events
    assert any(e.startswith("dropped: blue_cube") for e in state.events)
    assert_stacked_in_order(world, state)


def test_a_cube_that_topples_after_the_last_release_is_caught_by_the_final_check():
    world = FakeWorld.seeded(3, latency_ticks=3)
    tree = build(world)
    board = tree.root_blackboard
    world.hooks.append(Once(lambda w: "home_at_end" in w.running_moves,
                            lambda w: w.drag("yellow_cube", free_spot(w, board.get("layout"), w.cubes["yellow_cube"])
                                             - w.cubes["yellow_cube"][:2])))
    status, _ = run_tree(tree, world)
    state = task_state(board)
    assert status is NodeStatus.SUCCESS, state.events
    assert world.hooks[0].fired
    assert any(e.startswith("stack_invalid: yellow_cube displaced from level 3") for e in state.events)
    assert sum(e == "decide: yellow_cube -> level 3" for e in state.events) == 2
    assert_stacked_in_order(world, state)


def test_a_cube_that_vanishes_makes_the_tree_fail_after_bounded_retries():
    """The tree must be able to fail: yellow disappears from the world (and from perception)."""
    world = FakeWorld.seeded(4)
    tree = build(world)
    world.hooks.append(Once(lambda w: w.holding == "green_cube", lambda w: w.cubes.pop("yellow_cube")))
    status, ticks = run_tree(tree, world)
    state = task_state(tree.root_blackboard)
    assert status is NodeStatus.FAILURE
    assert state.stacked == ["red_cube", "blue_cube", "green_cube"]
    assert "unseen: yellow_cube is next but perception does not see it" in state.events
    assert "move clear_view_home" in world.log          # it moved out of the camera's way first
    assert ticks < 5000


def test_a_view_clearing_move_that_cannot_be_planned_goes_straight():
    """Stacking bench, rtf 0, drag seed 6 (2026-12-04): the hand ended with a finger on the
    table, hiding the next cube; PLANNED refuses a start in collision, and the tree asked
    for that move again and again until it gave up."""
    world = FakeWorld.seeded(4)
    tree = build(world)
    hidden = {}

    def hide_yellow_and_block_planning(w):
        hidden["yellow_cube"] = w.cubes.pop("yellow_cube")
        w.fail_moves.append("clear_view_home")

    world.hooks.append(Once(lambda w: w.holding == "green_cube", hide_yellow_and_block_planning))
    world.hooks.append(Once(lambda w: "move clear_view_straight" in w.log, lambda w: w.cubes.update(hidden)))
    status, _ = run_tree(tree, world)
    state = task_state(tree.root_blackboard)
    assert status is NodeStatus.SUCCESS, state.events
    failed = world.log.index("failed clear_view_home")
    assert world.log[failed + 1] == "move clear_view_straight"
    assert_stacked_in_order(world, state)


def test_missing_cube_at_start_fails_the_survey():
    world = FakeWorld.seeded(0)
    del world.cubes["green_cube"]
    tree = build(world)
    status, _ = run_tree(tree, world)
    assert status is NodeStatus.FAILURE
    assert tree.root_blackboard.get("layout", None) is None


def test_groot2_sees_the_task_state_in_the_blackboard_dump():
    """The entries are plain lists, dicts and strings, so Groot2's blackboard view (the dump
    BT.CPP's publisher sends) shows the booking and the last decision."""
    from robot_tasks.bt.groot2.blackboard_dump import blackboard_json

    world = FakeWorld.seeded(0)
    tree = build(world)
    status, _ = run_tree(tree, world)
    dump = blackboard_json(tree.root_blackboard)
    assert status is NodeStatus.SUCCESS
    assert dump["stacked"] == list(ORDER) and dump["suspects"] == [] and dump["holding"] == ""
    assert (dump["cube"], dump["mode"]) == ("yellow_cube", "stack") and dump["grasps"] == 4
    assert sorted(dump["spawns"]) == sorted(ORDER) and len(dump["first_seen"]) == 3
