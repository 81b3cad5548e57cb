"""Which way the fingers close on a cube that leans (plan.tilted_grasp).

A cube that leans on another rests on one bottom edge: it is a level cube turned by its
tilt about a horizontal line along one of its own axes, the tilt axis. The two faces
across that axis stay vertical, so the fingers must close along it; the hand comes down
along the up face's normal, so it holds the cube square and the lift sets it level.
Level cubes keep exactly the targets they always had.
"""
from __future__ import annotations

import math

import numpy as np
import pytest
from test_stacking_leaves import SPAWNS, started, tree_of

from robot_tasks.bt import NodeStatus
from robot_tasks.perception.geometry import quat_from_matrix
from robot_tasks.tasks.stacking import plan
from robot_tasks.tasks.world_view import Seen, axes_of_quaternion, seen_from_detection

TABLE = 0.625
CENTRE = (0.45, 0.1, TABLE + 0.035)


def rot_z(angle):
    c, s = math.cos(angle), math.sin(angle)
    return np.array([[c, -s, 0.0], [s, c, 0.0], [0.0, 0.0, 1.0]])


def rotation_about(axis, angle):
    """Rodrigues: the rotation by `angle` about the unit vector `axis`."""
    k = np.asarray(axis, dtype=float) / np.linalg.norm(axis)
    cross = np.array([[0.0, -k[2], k[1]], [k[2], 0.0, -k[0]], [-k[1], k[0], 0.0]])
    return np.eye(3) + math.sin(angle) * cross + (1.0 - math.cos(angle)) * cross @ cross


def leaning(yaw, tilt, about_cube_axis):
    """A cube turned by `yaw` about world z, then tipped by `tilt` about its own x (0) or
    y (1) axis -- resting on the edge along that axis. Returns (Seen, rotation, tilt axis)."""
    level = rot_z(yaw)
    axis = level[:, about_cube_axis]
    rotation = rotation_about(axis, tilt) @ level
    return Seen("red_cube", CENTRE, yaw, orientation=tuple(quat_from_matrix(rotation))), rotation, axis


def tool_axes(pose):
    return np.array(axes_of_quaternion(pose["qx"], pose["qy"], pose["qz"], pose["qw"])).T   # columns x, y, z


CASES = [(yaw, tilt, axis) for yaw in (-2.6, -0.7, 0.0, 0.4, 1.3, 3.0) for tilt in (5.0, 10.0, 25.0, 40.0)
         for axis in (0, 1)]


@pytest.mark.parametrize("yaw, tilt_deg, about", CASES)
def test_fingers_close_along_the_tilt_axis_and_the_hand_comes_down_the_up_face_normal(yaw, tilt_deg, about):
    cube, rotation, tilt_axis = leaning(yaw, math.radians(tilt_deg), about)
    assert cube.tilt == pytest.approx(math.radians(tilt_deg), abs=1e-9)
    layout = started()["layout"]
    targets = plan.pick_targets(layout, cube)
    grasp, pre = targets["grasp_pose"], targets["pregrasp_pose"]
    tool = tool_axes(grasp)
    up = rotation[:, 2]                                    # the face that was on top stays the upper one
    closing = tool[:, 1]                                   # the Panda's fingers move along the tool's y
    assert abs(closing @ tilt_axis) == pytest.approx(1.0, abs=1e-9)
    assert abs(closing[2]) < 1e-9                          # ... a horizontal line: both faces stay vertical
    assert tool[:, 2] == pytest.approx(-up, abs=1e-9)      # pointing into the up face
    # square to the cube: in the cube's frame the tool's axes are the cube's, as for a level cube
    in_cube = rotation.T @ tool
    assert np.abs(in_cube).round(9) == pytest.approx(np.abs(np.round(in_cube)), abs=1e-9)
    assert (grasp["x"], grasp["y"], grasp["z"]) == pytest.approx(CENTRE)
    assert np.subtract((pre["x"], pre["y"], pre["z"]), CENTRE) == pytest.approx(layout.heights.approach * up)
    assert tool_axes(pre) == pytest.approx(tool)
    # tipped about the closing line, the tool's y is still (sin yaw, -cos yaw, 0) of a straight-down
    # hand at yaw; of the two yaws a half turn apart, the one nearer the wrist's middle
    yaw_of_hand = math.atan2(closing[0], -closing[1])
    off_middle = yaw_of_hand - plan.wrist_middle_yaw(CENTRE)
    assert abs(math.atan2(math.sin(off_middle), math.cos(off_middle))) <= math.pi / 2 + 1e-9


@pytest.mark.parametrize("yaw, middle, expected", [(0.0, 0.8, 0.0), (-1.4, 0.8, -1.4 + math.pi),
                                                   (2.2, 0.8, 2.2), (2.5, -0.3, 2.5 - math.pi),
                                                   (7.0, 0.0, 7.0 - 2 * math.pi)])
def test_nearest_half_turn(yaw, middle, expected):
    assert plan.nearest_half_turn(yaw, middle) == pytest.approx(expected)


def test_the_wrist_middle_is_45_degrees_past_the_heading_to_the_cube():
    # the Panda's hand sits at -45 degrees on its flange (sim: q7 = 0 straight down at this yaw)
    assert plan.wrist_middle_yaw((0.5, 0.0, 0.7)) == pytest.approx(math.pi / 4)
    assert plan.wrist_middle_yaw((0.5, 0.5, 0.7)) == pytest.approx(math.pi / 2)


def test_a_cube_on_a_corner_is_gripped_across_its_axis_nearest_level():
    level = rot_z(0.3)
    rotation = rotation_about((1.0, 1.0, 0.0), math.radians(20)) @ rotation_about((0.0, 1.0, 0.0), math.radians(12)) \
        @ level
    cube = Seen("red_cube", CENTRE, orientation=tuple(quat_from_matrix(rotation)))
    tool = tool_axes(plan.pick_targets(started()["layout"], cube)["grasp_pose"])
    nearest_level = min(range(3), key=lambda i: abs(rotation[2, i]))
    assert abs(tool[:, 1] @ rotation[:, nearest_level]) > 0.98
    upright = max(range(3), key=lambda i: abs(rotation[2, i]))
    assert tool[:, 2] == pytest.approx(-np.sign(rotation[2, upright]) * rotation[:, upright], abs=1e-9)


@pytest.mark.parametrize("yaw", [-2.0, -0.6, 0.0, 0.3, 1.2])
@pytest.mark.parametrize("orientation", ["yaw only", "level quaternion", "tilted under the threshold",
                                         "on its side"])
def test_level_cubes_keep_the_targets_they_always_had(yaw, orientation):
    if orientation == "yaw only":
        cube = Seen("red_cube", CENTRE, yaw)
    else:
        rotation = {"level quaternion": rot_z(yaw),
                    "tilted under the threshold": rotation_about((1.0, 0.0, 0.0), math.radians(1.5)) @ rot_z(yaw),
                    "on its side": rot_z(yaw) @ rotation_about((1.0, 0.0, 0.0), math.pi / 2)}[orientation]
        cube = Seen("red_cube", CENTRE, yaw, orientation=tuple(quat_from_matrix(rotation)))
    layout = started()["layout"]
    x, y, z = CENTRE
    folded = plan.grasp_yaw(yaw)
    assert plan.pick_targets(layout, cube) == {
        "pregrasp_pose": plan.top_down_pose((x, y, z + layout.heights.approach), folded),
        "grasp_pose": plan.top_down_pose((x, y, z + layout.heights.grasp_offset), folded)}


def test_a_tilted_detection_reaches_the_pick_leaf_with_its_tilt():
    _, rotation, tilt_axis = leaning(0.5, math.radians(30), 1)
    qx, qy, qz, qw = quat_from_matrix(rotation)
    detection = {"label": "red_cube", "confidence": 0.9,
                 "pose": {"position": dict(zip("xyz", CENTRE)), "orientation": {"x": qx, "y": qy, "z": qz, "w": qw}}}
    assert seen_from_detection(detection).tilt == pytest.approx(math.radians(30), abs=1e-9)
    tree = tree_of('<ComputePickTargets layout="{layout}" detections="{d}" cube="red_cube" '
                   'pregrasp_pose="{pre}" grasp_pose="{g}" first_seen="{first_seen}"/>',
                   **started(), d=[detection] + SPAWNS[1:])
    assert tree.tick_once() is NodeStatus.SUCCESS
    tool = tool_axes(tree.root_blackboard.get("g"))
    assert abs(tool[:, 1] @ tilt_axis) == pytest.approx(1.0, abs=1e-9)
    assert tree.root_blackboard.get("first_seen") == pytest.approx(CENTRE)
