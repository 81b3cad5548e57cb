"""The franka_pick_place scene: seeded, one cube within reach and apart from the target,
the target where target_for_seed says (the demo's payload uses the same function), and a
marker that nothing collides with."""
from __future__ import annotations

import math

import pytest

from robot_tasks.sim import World
from robot_tasks.sim.disturb import drag_object
from robot_tasks.sim.scenes import franka_pick_place as scene

pytestmark = pytest.mark.sim
REST_Z = 0.625 + 0.025


def states(world):
    return {s.name: s for s in world.object_states()}


def test_target_for_seed_is_a_pure_function_of_the_seed_inside_its_box():
    targets = [scene.target_for_seed(seed) for seed in range(50)]
    assert targets == [scene.target_for_seed(seed) for seed in range(50)]
    assert len(set(targets)) == 50
    for x, y in targets:
        assert scene.TARGET_X[0] <= x <= scene.TARGET_X[1] and scene.TARGET_Y[0] <= y <= scene.TARGET_Y[1]


@pytest.mark.parametrize("seed", [0, 1, 7])
def test_the_cube_rests_in_reach_apart_from_the_target_marked_where_the_payload_says(seed):
    with World(scene="franka_pick_place", seed=seed) as world:
        world.step(240)
        objects = states(world)
        assert set(objects) == {scene.CUBE_NAME, scene.TARGET_NAME}
        cube, target = objects[scene.CUBE_NAME], objects[scene.TARGET_NAME]
        assert cube.position[2] == pytest.approx(REST_Z, abs=0.002) and cube.up_z > 0.99
        assert scene.SPAWN_X[0] <= cube.position[0] <= scene.SPAWN_X[1]
        assert scene.SPAWN_Y[0] <= cube.position[1] <= scene.SPAWN_Y[1]
        assert target.position[:2] == pytest.approx(scene.target_for_seed(seed), abs=1e-9)
        assert math.dist(cube.position[:2], target.position[:2]) >= scene.MIN_SEPARATION


def test_a_cube_set_on_the_marker_rests_on_the_table_through_it():
    with World(scene="franka_pick_place", seed=3) as world:
        tx, ty = scene.target_for_seed(3)
        drag_object(world, scene.CUBE_NAME, (tx, ty, REST_Z + 0.01))
        world.step(240)
        cube = states(world)[scene.CUBE_NAME]
        assert cube.position == pytest.approx((tx, ty, REST_Z), abs=0.002)
