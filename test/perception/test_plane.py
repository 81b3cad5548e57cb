"""dominant_plane: the largest near-level plane among a box's points, walls left out."""
from __future__ import annotations

import math

import numpy as np

from robot_tasks.perception.plane import dominant_plane


def _patch(rng, n, normal, point, size=0.2):
    """n points on the plane through `point` with `normal`, spread over size x size."""
    normal = np.asarray(normal, float) / np.linalg.norm(normal)
    u = np.cross(normal, [0.0, 1.0, 0.0] if abs(normal[1]) < 0.9 else [1.0, 0.0, 0.0])
    u /= np.linalg.norm(u)
    v = np.cross(normal, u)
    s, t = rng.uniform(-size / 2, size / 2, (2, n))
    return np.asarray(point) + s[:, None] * u + t[:, None] * v + rng.normal(0, 0.0005, (n, 1)) * normal


def test_the_tilted_face_wins_over_a_smaller_floor_and_a_bigger_wall():
    rng = np.random.default_rng(3)
    tilt = math.radians(16.0)
    face_normal = (-math.sin(tilt), 0.0, math.cos(tilt))
    points = np.vstack([_patch(rng, 1500, face_normal, (0.3, 0.8, 0.7)),
                        _patch(rng, 600, (0, 0, 1), (0.3, 0.8, 0.55)),           # the belt beside it
                        _patch(rng, 3000, (1, 0, 0.1), (0.45, 0.8, 0.6))])        # a steep wall: no candidate
    plane = dominant_plane(points, max_tilt=math.radians(35.0))
    assert plane is not None
    assert math.degrees(math.acos(float(plane.normal @ face_normal))) < 0.5
    assert abs(math.degrees(plane.tilt) - 16.0) < 0.5
    assert abs(plane.offset - float(np.dot(face_normal, (0.3, 0.8, 0.7)))) < 0.002


def test_no_plane_when_only_walls_or_too_few_points():
    rng = np.random.default_rng(4)
    assert dominant_plane(_patch(rng, 500, (1, 0, 0), (0, 0, 0)), max_tilt=math.radians(35.0)) is None
    assert dominant_plane(np.zeros((2, 3)), max_tilt=math.radians(35.0)) is None
