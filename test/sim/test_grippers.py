"""Panda fingers grasp, lift and stack a cube; the UR10 suction cup lifts and releases a bin."""
from __future__ import annotations

import math

import numpy as np
import pybullet as p
import pytest
from sim_helpers import move_to

from robot_tasks.sim import CommandRejected, World

pytestmark = pytest.mark.sim


def _down_with_yaw(yaw: float):
    # The gripper pointing down (roll pi) flips the sense of yaw about z: use -yaw.
    return p.getQuaternionFromEuler([math.pi, 0.0, -yaw])


def _cube_yaw(state) -> float:
    return p.getEulerFromQuaternion(state.orientation)[2]


def test_panda_grasps_lifts_and_stacks_a_cube(stacking_world):
    world = stacking_world
    arm = world.robot("panda")
    red, blue = world.object_state("red_cube"), world.object_state("blue_cube")
    red_pos, blue_pos = np.array(red.position), np.array(blue.position)
    grip = _down_with_yaw(_cube_yaw(red))

    move_to(world, arm, red_pos + [0, 0, 0.15], 2.0, grip)
    move_to(world, arm, red_pos, 1.0, grip)
    arm.gripper.grasp(20.0)
    world.step(120)
    state = arm.gripper.state()
    assert state.object_stopped and state.held_object == "red_cube"
    assert 0.045 < state.width < 0.06

    move_to(world, arm, red_pos + [0, 0, 0.20], 1.0, grip)
    lifted = world.object_state("red_cube").position
    assert lifted[2] - red_pos[2] > 0.15, "the cube did not come up with the fingers"
    assert arm.gripper.state().held_object == "red_cube"

    place = _down_with_yaw(_cube_yaw(blue))
    move_to(world, arm, blue_pos + [0, 0, 0.20], 2.0, place)
    move_to(world, arm, blue_pos + [0, 0, 0.052], 1.0, place)
    arm.gripper.open()
    world.step(120)
    move_to(world, arm, blue_pos + [0, 0, 0.20], 1.0, place)
    world.step(120)

    red_now, blue_now = world.object_state("red_cube"), world.object_state("blue_cube")
    assert red_now.position[2] == pytest.approx(blue_now.position[2] + 0.05, abs=0.005)
    assert np.linalg.norm(np.subtract(red_now.position[:2], blue_now.position[:2])) < 0.015
    assert np.linalg.norm(np.subtract(blue_now.position, blue_pos)) < 0.01   # base cube stayed put
    assert not arm.gripper.state().object_stopped


def _finger_contact_force(world, arm, body) -> list[float]:
    """Normal force [N] between each finger and `body`, from the physics engine's contacts."""
    cid = world.client
    return [sum(c[9] for c in p.getContactPoints(bodyA=arm.body_id, bodyB=body, linkIndexA=arm.link_index(link),
                                                 physicsClientId=cid))
            for link in ("panda_leftfinger", "panda_rightfinger")]


def test_force_hold_switches_to_force_control_on_contact_and_squeezes_with_the_set_force(stacking_world):
    world = stacking_world
    arm = world.robot("panda")
    red = world.object_state("red_cube")
    grip = _down_with_yaw(_cube_yaw(red))
    move_to(world, arm, np.array(red.position) + [0, 0, 0.15], 2.0, grip)
    move_to(world, arm, np.array(red.position), 1.0, grip)
    arm.gripper.record_steps = True
    arm.gripper.command(0.0, 10.0, force_hold=True)
    assert arm.gripper.step_record()[3] == "position"           # still closing under position control
    world.step(120)
    reference, feedback, output, mode = arm.gripper.step_record()
    assert mode == "force" and output == [-10.0, -10.0] and reference == [0.0, 0.0]
    assert sum(feedback) == pytest.approx(0.05, abs=0.006)       # stopped by the 5 cm cube
    body = world.objects["red_cube"].body_id
    forces = _finger_contact_force(world, arm, body)
    assert forces == pytest.approx([10.0, 10.0], rel=0.15)       # each finger pushes with the set force
    move_to(world, arm, np.array(red.position) + [0, 0, 0.15], 1.0, grip)
    assert world.object_state("red_cube").position[2] - red.position[2] > 0.12
    assert arm.gripper.step_record()[3] == "force"               # the force is kept while carrying
    arm.gripper.open()
    assert arm.gripper.step_record()[3] == "position"


def test_force_hold_closing_on_nothing_stays_position_controlled(panda_world):
    arm = panda_world.robot("panda")
    arm.gripper.command(0.0, 10.0, force_hold=True)
    panda_world.step(240)
    assert arm.gripper.step_record()[3] == "position" and arm.gripper.state().width < 0.002


def test_fingers_closing_on_nothing_report_no_object(panda_world):
    arm = panda_world.robot("panda")
    arm.gripper.grasp(20.0)
    panda_world.step(240)
    state = arm.gripper.state()
    assert state.width < 0.002 and not state.object_stopped and state.held_object == ""
    arm.gripper.command(0.06)
    panda_world.step(240)
    assert arm.gripper.state().width == pytest.approx(0.06, abs=0.002)


@pytest.mark.parametrize("width, effort", [(0.2, 20.0), (-0.01, 20.0), (math.nan, 20.0), (0.04, 0.0),
                                           (0.04, 141.0)])
def test_bad_gripper_commands_are_rejected(panda_world, width, effort):
    arm = panda_world.robot("panda")
    with pytest.raises(CommandRejected):
        arm.gripper.command(width, effort)
    assert arm.gripper.state().commanded_width == pytest.approx(0.08)


def _suction_pick(world, arm, bin_name):
    state = world.object_state(bin_name)
    # Upside down: the bin's floor faces up; upright: reach inside onto its floor.
    top_z = state.position[2] + (state.size[2] / 2 if state.upside_down else -state.size[2] / 2 + 0.008)
    top = np.array([state.position[0], state.position[1], top_z])
    move_to(world, arm, top + [0, 0, 0.15], 2.0)
    arm.gripper.on()
    move_to(world, arm, top - [0, 0, 0.005], 1.0)
    return top


@pytest.fixture
def pallet_world():
    with World(scene="ur10_palletizing", seed=3) as world:
        world.step(60)
        yield world


def test_suction_lifts_and_releases_a_bin(pallet_world):
    world = pallet_world
    arm = world.robot("ur10")
    start = np.array(world.object_state("bin_0").position)
    top = _suction_pick(world, arm, "bin_0")
    assert arm.gripper.state().attached_object == "bin_0"
    move_to(world, arm, top + [0, -0.3, 0.3], 1.5)
    lifted = np.array(world.object_state("bin_0").position)
    assert lifted[2] - start[2] > 0.25
    assert arm.gripper.state().attached_object == "bin_0"
    arm.gripper.off()
    world.step(240)
    assert arm.gripper.state().attached_object == ""
    dropped = world.object_state("bin_0").position
    assert dropped[2] < lifted[2] - 0.2, "the bin did not fall when suction was released"


def test_suction_force_limit_loses_a_bin_too_heavy_for_it(pallet_world):
    world = pallet_world
    arm = world.robot("ur10")
    arm.gripper.set_max_force(2.0)      # 0.6 kg bin weighs 5.9 N
    start_z = world.object_state("bin_0").position[2]
    top = _suction_pick(world, arm, "bin_0")
    move_to(world, arm, top + [0, 0, 0.3], 1.0)
    assert arm.gripper.state().attached_object == ""
    assert world.object_state("bin_0").position[2] < start_z + 0.05   # it stayed down
