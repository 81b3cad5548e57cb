"""Disturbances: drag an object, drop what a gripper holds, knock a stack."""
from __future__ import annotations

import math

import numpy as np
import pybullet as p
import pytest
from sim_helpers import move_to

from robot_tasks.sim import SimError
from robot_tasks.sim.disturb import drag_object, drop_held, knock

pytestmark = pytest.mark.sim


def test_drag_moves_an_object_and_rejects_bad_input(stacking_world):
    world = stacking_world
    drag_object(world, "green_cube", (0.45, -0.1, 0.651))
    world.step(60)
    assert np.allclose(world.object_state("green_cube").position, (0.45, -0.1, 0.65), atol=0.003)
    with pytest.raises(SimError, match="NaN"):
        drag_object(world, "green_cube", (float("nan"), 0, 0))
    with pytest.raises(SimError, match="unknown object 'pink_cube'"):
        drag_object(world, "pink_cube", (0, 0, 1))


def test_knock_topples_a_stack(stacking_world):
    world = stacking_world
    base = np.array(world.object_state("red_cube").position)
    drag_object(world, "blue_cube", base + [0, 0, 0.0505])
    world.step(120)
    assert world.object_state("blue_cube").position[2] == pytest.approx(base[2] + 0.05, abs=0.003)
    knock(world, "red_cube", (0.0, 0.15, 0.0))
    world.step(240)
    assert world.object_state("blue_cube").position[2] < base[2] + 0.01    # the top cube fell


def test_drop_held_makes_the_gripper_let_go(stacking_world):
    world = stacking_world
    arm = world.robot("panda")
    cube = world.object_state("yellow_cube")
    grip = p.getQuaternionFromEuler([math.pi, 0, -p.getEulerFromQuaternion(cube.orientation)[2]])
    move_to(world, arm, np.add(cube.position, (0, 0, 0.1)), 1.5, grip)
    move_to(world, arm, cube.position, 0.8, grip)
    arm.gripper.grasp(20.0)
    world.step(100)
    move_to(world, arm, np.add(cube.position, (0, 0, 0.15)), 0.8, grip)
    assert arm.gripper.state().held_object == "yellow_cube"
    text = drop_held(world, "panda")
    assert text == "panda opened its fingers and dropped yellow_cube"
    world.step(120)
    assert world.object_state("yellow_cube").position[2] == pytest.approx(cube.position[2], abs=0.01)
    assert arm.gripper.state().held_object == ""
    with pytest.raises(SimError, match="unknown robot"):
        drop_held(world, "ur5")
