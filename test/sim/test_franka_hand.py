"""The sim's Franka Hand (robot_tasks.sim.franka_hand): libfranka's commands on the Panda's fingers."""
from __future__ import annotations

import math

import numpy as np
import pybullet as p
import pytest
from sim_helpers import move_to

from robot_tasks.sim.franka_hand import ABORTED, FAILED, FrankaHand

pytestmark = pytest.mark.sim


def run(world, hand, limit: float = 3.0):
    """Step until the running command ends; return it (None if it did not end in `limit` s)."""
    t0 = world.time
    while world.time - t0 < limit:
        world.step(2)
        done = hand.poll(world.time)
        if done is not None:
            return done
    return None


@pytest.fixture
def on_cube(stacking_world):
    """The open hand around the red cube (5 cm), ready to close on it."""
    world = stacking_world
    arm = world.robot("panda")
    red = world.object_state("red_cube")
    yaw = p.getEulerFromQuaternion(red.orientation)[2]
    grip = p.getQuaternionFromEuler([math.pi, 0.0, -yaw])
    move_to(world, arm, np.array(red.position) + [0, 0, 0.15], 2.0, grip)
    move_to(world, arm, np.array(red.position), 1.0, grip)
    return world, FrankaHand(arm.gripper)


def test_a_grasp_on_the_cube_succeeds_within_its_epsilons_and_holds_its_force(on_cube):
    world, hand = on_cube
    hand.grasp(0.05, 0.1, 30.0, 0.005, 0.005, world.time)
    done = run(world, hand)
    assert done is not None and done.success and done.error == ""
    assert 0.045 < hand.width() < 0.055
    assert hand.gripper.force_mode and hand.gripper.max_effort == 30.0   # squeezing with the grasp force
    world.step(120)
    assert hand.gripper.state().held_object == "red_cube"


def test_a_grasp_whose_width_misses_the_epsilons_fails_without_an_error(on_cube):
    world, hand = on_cube
    hand.grasp(0.03, 0.1, 20.0, 0.005, 0.005, world.time)       # the cube stops the fingers at 5 cm
    done = run(world, hand)
    assert done is not None and not done.success and done.error == ""


def test_an_empty_hand_closes_to_nothing(stacking_world):
    world = stacking_world
    hand = FrankaHand(world.robot("panda").gripper)
    hand.grasp(0.04, 0.1, 20.0, 0.005, 0.005, world.time)
    done = run(world, hand)
    assert done is not None and not done.success and hand.width() < 0.002
    hand.grasp(0.0, 0.1, 20.0, 0.005, 0.005, world.time)
    assert run(world, hand).success


def test_move_homing_and_their_refusals(stacking_world):
    world = stacking_world
    hand = FrankaHand(world.robot("panda").gripper)
    hand.move(0.06, 0.1, world.time)
    t0 = world.time
    assert run(world, hand).success and abs(hand.width() - 0.06) < 0.001
    assert world.time - t0 == pytest.approx(0.2, abs=0.05)           # 2 cm at 0.1 m/s
    hand.homing(world.time)
    assert run(world, hand).success and abs(hand.width() - 0.08) < 0.001
    for refused in (hand.move(0.09, 0.1, world.time), hand.move(0.04, 0.0, world.time),
                    hand.grasp(0.04, 0.1, 0.0, 0.005, 0.005, world.time)):
        assert refused.done and not refused.success and refused.error == FAILED


def test_a_move_an_object_blocks_runs_on_until_stop(on_cube):
    world, hand = on_cube
    move = hand.move(0.0, 0.1, world.time)
    assert run(world, hand, limit=1.5) is None and not move.done and 0.045 < hand.width() < 0.055
    assert hand.stop()
    assert move.done and not move.success and move.error == ABORTED and hand.running is None


def test_a_newer_command_aborts_the_running_one(stacking_world):
    world = stacking_world
    hand = FrankaHand(world.robot("panda").gripper)
    first = hand.move(0.0, 0.02, world.time)
    world.step(24)
    second = hand.move(0.08, 0.1, world.time)
    assert first.done and first.error == ABORTED and hand.running is second
    assert run(world, hand) is second and second.success
