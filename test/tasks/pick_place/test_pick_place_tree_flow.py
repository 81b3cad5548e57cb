"""Control flow of trees/franka_pick_place.xml on the real engine, against a kinematic fake.

LOGIC TEST OF THE TREE, NOT A PHYSICS CLAIM: the stub motion, gripper and perception
leaves of test/tasks/stacking_fake_world.py move points around (a cube under the open
gripper is hidden, as the real hand hides it from the camera); these tests show which
branches run, what is halted and started again, and where the cube ends. Physics is in the
end-to-end demo (test/demo/test_pick_place_e2e.py).
"""
from __future__ import annotations

import logging
import sys
from pathlib import Path

import numpy as np
import pytest

from robot_tasks.bt import BehaviorTreeFactory, NodeStatus
from robot_tasks.tasks.pick_place import register_pick_place_nodes

# the kinematic fake lives beside the stacking tests, one folder up (pytest puts only this
# test's own folder on sys.path)
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from stacking_fake_world import SIZE, STUBS, TABLE_Z, FakeWorld, run_tree  # noqa: E402

TREE = Path(__file__).resolve().parents[3] / "trees" / "franka_pick_place.xml"
TARGET = (0.55, -0.10)
REST_Z = TABLE_Z + SIZE / 2


def world_with_cube_at(x, y, yaw=0.3) -> FakeWorld:
    return FakeWorld({"red_cube": np.array([x, y, REST_Z])}, {"red_cube": yaw})


def run(world, target=TARGET):
    factory = BehaviorTreeFactory()
    register_pick_place_nodes(factory)
    for registration_id, cls in STUBS.items():
        factory.register_node_type(cls, registration_id, world)
    tree = factory.create_tree_from_file(TREE)
    tree.root_blackboard.set("target", f"{target[0]};{target[1]}")
    status, _ = run_tree(tree, world)
    return status


def assert_on_target(world):
    assert world.cubes["red_cube"] == pytest.approx((*TARGET, REST_Z), abs=1e-6)
    assert world.holding is None


def test_the_cube_is_picked_and_set_down_on_the_target():
    world = world_with_cube_at(0.40, 0.15)
    assert run(world) is NodeStatus.SUCCESS
    assert_on_target(world)
    moves = [line for line in world.log if line.startswith(("move", "grasp", "release"))]
    assert moves == ["move home", "move pre_grasp", "move approach", "grasp red_cube", "move lift", "move transport",
                     "move lower", "release red_cube", "move retract", "move home"]


def test_a_cube_dragged_while_the_arm_comes_is_picked_where_it_now_is(caplog):
    caplog.set_level(logging.INFO, logger="robot_tasks.tasks.pick_place")
    world = world_with_cube_at(0.40, 0.15)
    dragged = []

    def drag_mid_approach(w):
        if not dragged and "pre_grasp" in w.running_moves and w.tool[2] < 1.0:
            w.drag("red_cube", (0.0, 0.12))
            dragged.append(True)

    world.hooks.append(drag_mid_approach)
    assert run(world) is NodeStatus.SUCCESS
    assert dragged and "halted pre_grasp" in world.log
    assert_on_target(world)
    assert "pickup_resync: red_cube moved 0.120 m since its pickup started" in caplog.text
    assert "pick: red_cube at (0.400, 0.270)" in caplog.text          # the second look


def test_a_failed_carry_lets_go_and_starts_over_from_a_fresh_look():
    world = world_with_cube_at(0.40, 0.15)
    world.fail_moves.append("transport")                 # no plan for the carry, once
    assert run(world) is NodeStatus.SUCCESS
    assert_on_target(world)
    assert world.log.count("move pre_grasp") == 2 and "failed transport" in world.log


def test_a_cube_already_on_the_target_is_left_where_it_is():
    world = world_with_cube_at(*TARGET)
    assert run(world) is NodeStatus.SUCCESS
    assert not any(line.startswith(("grasp", "move pre_grasp")) for line in world.log)


def test_without_a_target_the_tree_stops_naming_the_port():
    from robot_tasks.bt import BehaviorTreeError

    world = world_with_cube_at(0.40, 0.15)
    factory = BehaviorTreeFactory()
    register_pick_place_nodes(factory)
    for registration_id, cls in STUBS.items():
        factory.register_node_type(cls, registration_id, world)
    tree = factory.create_tree_from_file(TREE)
    with pytest.raises(BehaviorTreeError, match=r"\[target\]"):
        run_tree(tree, world)
