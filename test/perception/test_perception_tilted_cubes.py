"""A cube that came to rest leaning on another is found with its tilt, not a yaw alone.

The scene: a blue cube level on the table, a red one tilted by 10-40 degrees about a
horizontal axis, one bottom edge on the table and its upper edge resting against the
blue cube's side (placed so, statically: the pose a knocked cube comes to rest in). The
configuration is turned about the vertical so the camera sees the lean from different
sides. Ground truth is read back from PyBullet and used only to grade.

The orientation error is the angle of the smallest rotation between the detected frame
and the true one, over the cube's 24 symmetries (a cube looks the same after any
quarter turn about any of its axes).
"""
from __future__ import annotations

import itertools
import math

import numpy as np
import pytest
from perception_scenes import CUBE, OBLIQUE, TABLE_TOP, TOP_DOWN, TableScene

from robot_tasks.perception import Detector
from robot_tasks.perception.geometry import matrix_from_quat, quat_from_matrix

MAX_ORIENTATION_ERROR_DEG = 5.0


def cube_symmetries() -> list[np.ndarray]:
    """The 24 rotations that map a cube onto itself: signed permutation matrices, det +1."""
    out = []
    for perm in itertools.permutations(range(3)):
        for signs in itertools.product((1.0, -1.0), repeat=3):
            m = np.zeros((3, 3))
            for row, (col, sign) in enumerate(zip(perm, signs)):
                m[row, col] = sign
            if np.linalg.det(m) > 0:
                out.append(m)
    return out


SYMMETRIES = cube_symmetries()


def cube_orientation_error_deg(detected_q, true_q) -> float:
    """Smallest rotation angle (degrees) from the detected frame to any symmetric copy of the true one."""
    detected, true = matrix_from_quat(detected_q), matrix_from_quat(true_q)
    cosines = [(np.trace(detected.T @ true @ s) - 1.0) / 2.0 for s in SYMMETRIES]
    return math.degrees(math.acos(min(1.0, max(cosines))))


def leaning_pose(blue_xy, tilt: float, heading: float):
    """Centre and quaternion of a cube leaning at ``tilt`` against the side of a level cube
    at ``blue_xy``, on the side the unit vector at ``heading`` points to from it."""
    h = CUBE / 2.0
    c, s = math.cos(tilt), math.sin(tilt)
    # In the lean's own frame (x toward the blue cube): turned by `tilt` about y, the
    # cube's top +x edge touches the blue cube's face at x = -h (blue centre at 0) and
    # its bottom +x edge is on the table.
    local_centre = np.array([-h - h * (c + s), 0.0, TABLE_TOP + h * (c + s)])
    lean = np.array([[c, 0.0, s], [0.0, 1.0, 0.0], [-s, 0.0, c]])
    # Turn the frame so its -x axis points along `heading` from the blue cube.
    turn = heading + math.pi
    ct, st = math.cos(turn), math.sin(turn)
    rz = np.array([[ct, -st, 0.0], [st, ct, 0.0], [0.0, 0.0, 1.0]])
    xy = rz[:2, :2] @ local_centre[:2] + np.asarray(blue_xy)
    return (float(xy[0]), float(xy[1]), float(local_centre[2])), quat_from_matrix(rz @ lean)


CASES = [(tilt, heading, camera) for tilt in (10.0, 20.0, 30.0, 40.0)
         for heading, camera in ((0.0, "oblique"), (150.0, "oblique"), (90.0, "top"), (-60.0, "top"))]


def detect_leaning(tilt_deg: float, heading_deg: float, camera: str, width=640, height=480):
    """Detections of the scene, and the true (position, quaternion) of both cubes."""
    blue_xy = (0.5, 0.0)
    with TableScene() as scene:
        scene.add_cube("blue", blue_xy, yaw=math.radians(heading_deg))
        centre, orientation = leaning_pose(blue_xy, math.radians(tilt_deg), math.radians(heading_deg))
        scene.add_box("red_cube", "red", [CUBE / 2] * 3, centre[:2], z=centre[2], orientation=orientation)
        frame = scene.render(**(OBLIQUE if camera == "oblique" else TOP_DOWN), width=width, height=height)
        truth = {name: scene.pose(name) for name in ("red_cube", "blue_cube")}
    found = Detector().detect(frame.rgb, frame.depth, frame.intrinsics, frame.world_T_camera)
    return {d.label: d for d in found}, truth


@pytest.mark.parametrize("tilt_deg,heading_deg,camera", CASES)
def test_a_cube_leaning_on_another_is_found_with_its_tilt(tilt_deg, heading_deg, camera):
    found, truth = detect_leaning(tilt_deg, heading_deg, camera)
    assert set(found) == {"red_cube", "blue_cube"}
    red = found["red_cube"]
    position, orientation = truth["red_cube"]
    assert np.linalg.norm(np.asarray(red.position) - position) < 0.01
    assert cube_orientation_error_deg(red.orientation, orientation) < MAX_ORIENTATION_ERROR_DEG
    # the cube it leans on is still reported level
    blue_position, blue_orientation = truth["blue_cube"]
    assert np.linalg.norm(np.asarray(found["blue_cube"].position) - blue_position) < 0.01
    assert cube_orientation_error_deg(found["blue_cube"].orientation, blue_orientation) < MAX_ORIENTATION_ERROR_DEG


def test_the_orientation_error_counts_the_cubes_symmetry():
    q = quat_from_matrix(np.array([[0.0, -1.0, 0.0], [1.0, 0.0, 0.0], [0.0, 0.0, 1.0]]))   # quarter turn
    assert cube_orientation_error_deg(q, (0.0, 0.0, 0.0, 1.0)) == pytest.approx(0.0, abs=1e-6)
    tilt = quat_from_matrix(np.array([[1.0, 0.0, 0.0], [0.0, math.cos(0.2), -math.sin(0.2)],
                                      [0.0, math.sin(0.2), math.cos(0.2)]]))
    assert cube_orientation_error_deg(tilt, (0.0, 0.0, 0.0, 1.0)) == pytest.approx(math.degrees(0.2), abs=1e-6)
