"""The pick-and-place geometry and checks (robot_tasks/tasks/pick_place/plan.py): plain numbers."""
from __future__ import annotations

import math

import pytest

from robot_tasks.tasks.pick_place import plan
from robot_tasks.tasks.world_view import Seen, axes_of_quaternion

REST_Z = 0.65      # a 5 cm cube's centre on the sim's table (0.625 + 0.025)


def cube(x, y, z=REST_Z, yaw=0.0):
    return Seen("red_cube", (x, y, z), yaw, (0.05, 0.05, 0.05))


def xyz(pose):
    return (pose["x"], pose["y"], pose["z"])


def tool_z_axis(pose):
    return axes_of_quaternion(pose["qx"], pose["qy"], pose["qz"], pose["qw"])[2]


@pytest.mark.parametrize("text, xy", [("0.5;-0.1", (0.5, -0.1)), (" 0.45 ; 0.2 ", (0.45, 0.2)), ("0.5;0.1;", (0.5, 0.1))])
def test_a_target_is_x_semicolon_y(text, xy):
    assert plan.parse_target(text) == xy


@pytest.mark.parametrize("text", ["", "0.5", "0.5;0.1;0.7", "a;b", "nan;0.1", None])
def test_an_unreadable_target_says_what_it_got(text):
    with pytest.raises(plan.PickPlaceError, match="target must be"):
        plan.parse_target(text)


@pytest.mark.parametrize("yaw, folded", [(0.0, 0.0), (0.3, 0.3), (math.pi / 2 + 0.1, 0.1), (-0.9, math.pi / 2 - 0.9),
                                         (math.pi, 0.0)])
def test_the_hand_turns_at_most_an_eighth_turn(yaw, folded):
    assert plan.folded_yaw(yaw) == pytest.approx(folded, abs=1e-9)
    assert -math.pi / 4 <= plan.folded_yaw(yaw) < math.pi / 4


def test_pick_poses_are_above_and_at_the_cube_pointing_down():
    poses = plan.pick_poses(cube(0.5, 0.1, yaw=0.2))
    assert xyz(poses["grasp_pose"]) == pytest.approx((0.5, 0.1, REST_Z))
    assert xyz(poses["pregrasp_pose"]) == pytest.approx((0.5, 0.1, REST_Z + plan.APPROACH))
    for pose in poses.values():
        assert tool_z_axis(pose) == pytest.approx((0.0, 0.0, -1.0), abs=1e-9)
        # the fingers close along the tool's y axis: square to the cube's faces
        y_axis = axes_of_quaternion(pose["qx"], pose["qy"], pose["qz"], pose["qw"])[1]
        assert math.atan2(y_axis[0], -y_axis[1]) == pytest.approx(0.2)


def test_carry_poses_lift_straight_up_cross_over_and_set_down_on_the_target():
    poses = plan.carry_poses((0.4, 0.2, REST_Z), 0.1, (0.55, -0.1), REST_Z)
    carry_z = REST_Z + plan.CARRY_HEIGHT
    assert xyz(poses["lift_pose"]) == pytest.approx((0.4, 0.2, carry_z))
    assert xyz(poses["transport_pose"]) == pytest.approx((0.55, -0.1, carry_z))
    assert xyz(poses["lower_pose"]) == pytest.approx((0.55, -0.1, REST_Z + plan.PLACE_GAP))
    assert xyz(poses["retract_pose"]) == pytest.approx((0.55, -0.1, REST_Z + plan.APPROACH))
    assert {(p["qx"], p["qy"]) for p in poses.values()} == {(math.cos(0.05), math.sin(0.05))}  # one yaw all the way


def test_pickup_resync_fires_on_a_move_beyond_the_threshold_only():
    start = (0.5, 0.0, REST_Z)
    assert not plan.moved_since_seen(start, cube(0.53, 0.0))
    assert plan.moved_since_seen(start, cube(0.56, 0.0))
    assert not plan.moved_since_seen(start, None), "not seen (the hand hides it) is no evidence"
    assert not plan.moved_since_seen(None, cube(0.9, 0.0))


def test_on_target_is_sideways_within_the_tolerance():
    assert plan.on_target(cube(0.51, 0.0, z=0.7), (0.5, 0.0))          # height does not count
    assert not plan.on_target(cube(0.52, 0.0), (0.5, 0.0))
    assert plan.on_target(cube(0.52, 0.0), (0.5, 0.0), tolerance=0.025)
    assert not plan.on_target(None, (0.5, 0.0))
    assert plan.off_target_by(cube(0.53, 0.04), (0.5, 0.0)) == pytest.approx(0.05)
