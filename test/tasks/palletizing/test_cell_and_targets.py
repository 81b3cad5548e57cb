"""The palletizing task's pure geometry: the cell matches the scene, the tool orientations
point the cup where they say, the corridors slide along one axis onto the right face."""
from __future__ import annotations

import math

import numpy as np
import pytest

from robot_tasks.perception.geometry import matrix_from_quat
from robot_tasks.tasks.palletizing import targets as tg
from robot_tasks.tasks.palletizing.cell import DEFAULT_CELL as CELL
from robot_tasks.tasks.palletizing.tool import cup_along_y, cup_direction, cup_down, cup_onto, fold_yaw


def xyz(pose):
    return np.array([pose["x"], pose["y"], pose["z"]])


def quat(pose):
    return (pose["qx"], pose["qy"], pose["qz"], pose["qw"])


def test_cell_matches_the_scene_landmarks():
    from robot_tasks.sim import World
    from robot_tasks.sim.scenes import ur10_palletizing as scene

    with World(scene="ur10_palletizing", seed=0) as world:
        for k in range(CELL.slot_count):
            assert CELL.slot_center(k) == pytest.approx(world.landmarks[f"pallet_slot_{k}"][0], abs=1e-9)
        first_bin = world.object_state("bin_0").position
    assert CELL.pickup_xy == pytest.approx(first_bin[:2], abs=0.005)
    assert CELL.jig_center == scene.JIG_CENTER and CELL.jig_top == scene.JIG_TOP
    assert (CELL.bin.length, CELL.bin.width, CELL.bin.height, CELL.bin.wall) == (*scene.BIN_SIZE, scene.BIN_WALL)


def test_slots_are_numbered_row_by_row_and_bad_indices_named():
    assert CELL.slot_center(0)[:2] == pytest.approx((-0.32, -0.58))
    assert CELL.slot_center(4)[:2] == pytest.approx((0.0, -0.80))
    assert CELL.slot_center(8)[:2] == pytest.approx((0.32, -1.02))
    with pytest.raises(ValueError, match="slot index 9"):
        CELL.slot_center(9)


@pytest.mark.parametrize("yaw", [0.0, 0.4, -1.2])
def test_cup_down_points_down_and_turns_the_tool_by_yaw(yaw):
    q = cup_down(yaw)
    assert cup_direction(q) == pytest.approx((0, 0, -1), abs=1e-12)
    x, y, z, w = q          # the tool's x axis: first column of the rotation
    x_axis = (1 - 2 * (y * y + z * z), 2 * (x * y + w * z), 2 * (x * z - w * y))
    assert x_axis == pytest.approx((math.cos(yaw), math.sin(yaw), 0), abs=1e-12)


def test_cup_along_y_points_sideways():
    assert cup_direction(cup_along_y(+1)) == pytest.approx((0, 1, 0), abs=1e-12)
    assert cup_direction(cup_along_y(-1)) == pytest.approx((0, -1, 0), abs=1e-12)
    with pytest.raises(ValueError):
        cup_along_y(0)


def test_fold_yaw_treats_half_turns_alike():
    assert fold_yaw(math.pi - 0.1) == pytest.approx(-0.1)
    assert fold_yaw(0.3) == pytest.approx(0.3)


@pytest.mark.parametrize("upside_down, face_offset", [(False, -0.06 + 0.008), (True, 0.06)])
def test_pick_reaches_the_face_that_is_up_through_a_vertical_corridor(upside_down, face_offset):
    center = (0.298, 0.8, 0.61)
    t = tg.pick_targets(center, 0.1, upside_down, CELL, lift=0.3)
    grip, above, lift = xyz(t.grip), xyz(t.above), xyz(t.lift)
    assert grip == pytest.approx([0.298, 0.8, 0.61 + face_offset - tg.PRESS])
    assert above - grip == pytest.approx([0, 0, tg.ABOVE]) and lift - grip == pytest.approx([0, 0, 0.3])
    assert quat(t.grip) == pytest.approx(cup_down(0.1))


@pytest.mark.parametrize("upside_down", [False, True], ids=["upright", "upside_down"])
def test_pick_of_a_tilted_bin_comes_in_along_its_face_normal(upside_down):
    """A bin leaning 16 deg with its front on the conveyor's stop: the cup sits square on
    the face that is up, the corridor runs along the face's normal, the lift is straight up
    with the cup turned down again."""
    tilt = math.radians(16.0)
    up = (-math.sin(tilt), 0.0, math.cos(tilt))          # front (+x) end raised
    center = np.array([0.318, 0.80, 0.649])
    t = tg.pick_targets(tuple(center), 0.05, upside_down, CELL, lift=0.3, up=up)
    grip, above, lift = xyz(t.grip), xyz(t.above), xyz(t.lift)
    depth = CELL.bin.height / 2 if upside_down else -(CELL.bin.height / 2 - CELL.bin.wall)
    assert grip == pytest.approx(center + (depth - tg.PRESS) * np.asarray(up))
    assert above - grip == pytest.approx(tg.ABOVE * np.asarray(up))
    assert cup_direction(quat(t.grip)) == pytest.approx(-np.asarray(up), abs=1e-9)
    assert quat(t.above) == pytest.approx(quat(t.grip))
    assert lift - grip == pytest.approx([0, 0, 0.3]) and quat(t.lift) == pytest.approx(cup_down(0.05))
    # the cup's x axis stays the bin's long axis, laid into the tilted face
    x_axis = matrix_from_quat(quat(t.grip))[:, 0]
    assert abs(float(x_axis @ np.asarray(up))) < 1e-9
    assert math.atan2(x_axis[1], x_axis[0]) == pytest.approx(0.05, abs=0.01)


def test_cup_onto_a_level_face_is_cup_down_and_a_face_looking_down_is_refused():
    assert cup_onto((0, 0, 2.0), 0.4) == pytest.approx(cup_down(0.4))
    for bad in ((0, 0, -1), (1, 0, 0), (0, 0, 0), (math.nan, 0, 1)):
        with pytest.raises(ValueError):
            cup_onto(bad)


def test_flip_station_two_quarter_turns():
    t = tg.flip_targets(CELL)
    # first grip: the cup along -y holds the bottom; the bin's lower side just above the plate
    assert cup_direction(quat(t.lay)) == pytest.approx((0, -1, 0), abs=1e-9)
    bin_center = xyz(t.lay) + [0, -CELL.bin.height / 2, 0]
    assert bin_center[2] - CELL.bin.width / 2 - CELL.jig_top == pytest.approx(tg.RELEASE_GAP)
    assert xyz(t.lay_above) - xyz(t.lay) == pytest.approx([0, 0, tg.ABOVE])       # down onto the plate
    assert xyz(t.lay_retreat) - xyz(t.lay) == pytest.approx([0, tg.ABOVE, 0])     # off the bottom along +y
    # second grip: along +y through the open face onto the inner floor, one slide
    assert cup_direction(quat(t.regrip)) == pytest.approx((0, 1, 0), abs=1e-9)
    mouth, regrip = xyz(t.regrip_mouth), xyz(t.regrip)
    assert (regrip - mouth)[0] == pytest.approx(0) and (regrip - mouth)[2] == pytest.approx(0)
    inner_floor_y = bin_center[1] + CELL.bin.height / 2 - CELL.bin.wall
    assert regrip[1] == pytest.approx(inner_floor_y + tg.PRESS)
    assert mouth[1] < bin_center[1] - CELL.bin.height / 2      # the slide starts outside the bin
    # then the cup points down again: the bin hangs upright
    assert cup_direction(quat(t.upright)) == pytest.approx((0, 0, -1), abs=1e-9)


def test_place_lowers_the_bin_bottom_to_just_above_the_pallet():
    for k in (0, 4, 8):
        t = tg.place_targets(CELL, k)
        x, y, z = CELL.slot_center(k)
        place = xyz(t.place)
        assert place[:2] == pytest.approx([x, y])
        bottom = place[2] - CELL.bin.wall          # held from inside: the floor's underside
        assert bottom - CELL.pallet_top == pytest.approx(tg.RELEASE_GAP)
        assert xyz(t.above) - place == pytest.approx([0, 0, tg.PLACE_ABOVE])
        assert xyz(t.lift) - place == pytest.approx([0, 0, tg.LIFT_AFTER_RELEASE])
