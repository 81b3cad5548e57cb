"""HSV conversion, colour bands, rectangle and circle fits and depth jumps against references."""
from __future__ import annotations

import colorsys
import math

import cv2
import numpy as np
import pytest

from robot_tasks.perception.color import ColorClass, rgb_to_hsv
from robot_tasks.perception.geometry import (
    extents_along,
    fit_circle,
    fit_sphere,
    matrix_from_quat,
    min_area_rectangle,
    quat_from_matrix,
    quat_from_yaw,
)


def test_rgb_to_hsv_matches_colorsys():
    rng = np.random.default_rng(0)
    rgb = rng.integers(0, 256, size=(40, 40, 3), dtype=np.uint8)
    rgb[0, :3] = [[10, 10, 10], [255, 0, 0], [0, 0, 0]]           # grey, pure red, black
    hsv = rgb_to_hsv(rgb)
    assert rgb_to_hsv(rgb.reshape(-1, 3)).shape == (1600, 3)     # pixel lists too
    h, s, v = np.moveaxis(hsv, -1, 0)
    for (r, g, b), hh, ss, vv in zip(rgb.reshape(-1, 3), h.reshape(-1), s.reshape(-1), v.reshape(-1)):
        eh, es, ev = colorsys.rgb_to_hsv(r / 255, g / 255, b / 255)
        assert ss == pytest.approx(es, abs=1e-5) and vv == pytest.approx(ev, abs=1e-5)
        if es > 0:
            assert (hh - eh * 360 + 180) % 360 - 180 == pytest.approx(0, abs=1e-3)


def test_red_band_wraps_through_zero():
    red = ColorClass("red", ((340.0, 15.0),))
    h = np.array([350.0, 5.0, 30.0, 200.0, 340.0, 15.0])
    m = red.mask(np.column_stack([h, np.ones(6), np.ones(6)]))
    assert m.tolist() == [True, True, False, False, True, False]     # [lo, hi): 15 is out


def test_saturation_and_value_floors():
    orange = ColorClass("orange", ((18.0, 40.0),), min_saturation=0.75, min_value=0.2)
    hsv = np.array([[[28.0, 0.8, 0.5], [28.0, 0.7, 0.5], [28.0, 0.8, 0.1]]])
    assert orange.mask(hsv).tolist() == [[True, False, False]]


@pytest.mark.parametrize("yaw_deg", [0.0, 12.0, 37.0, 44.0, 61.0, 89.0])
def test_min_area_rectangle_finds_the_yaw_of_a_square(yaw_deg):
    """A square's covariance is isotropic, so this is the case PCA cannot do."""
    g = np.linspace(-0.025, 0.025, 26)
    local = np.array([(a, b) for a in g for b in g])
    yaw = math.radians(yaw_deg)
    rot = np.array([[math.cos(yaw), -math.sin(yaw)], [math.sin(yaw), math.cos(yaw)]])
    xy = local @ rot.T + [0.4, -0.1]
    rect = min_area_rectangle(xy)
    err = (rect.yaw - yaw + math.pi / 4) % (math.pi / 2) - math.pi / 4
    assert abs(math.degrees(err)) < 0.1
    assert rect.center == pytest.approx((0.4, -0.1), abs=1e-6)
    assert rect.extents == pytest.approx((0.05, 0.05), abs=1e-4)


def test_min_area_rectangle_trims_outliers_and_pads():
    """A 10 x 4 cm rectangle at 30 degrees with two stray points far off one side."""
    g = np.stack(np.meshgrid(np.linspace(-0.05, 0.05, 101), np.linspace(-0.02, 0.02, 41)), -1).reshape(-1, 2)
    yaw = math.radians(30.0)
    rot = np.array([[math.cos(yaw), -math.sin(yaw)], [math.sin(yaw), math.cos(yaw)]])
    xy = np.vstack([g, [[0.0, 0.06], [0.001, 0.061]]]) @ rot.T
    rect = min_area_rectangle(xy, pad=0.001, trim=0.002)
    assert math.degrees(rect.yaw) == pytest.approx(30.0, abs=0.5)
    assert sorted(rect.extents) == pytest.approx([0.041, 0.101], abs=0.002)
    assert rect.center == pytest.approx((0.0, 0.0), abs=0.002)


def test_a_sphere_through_the_cap_a_camera_sees_finds_the_centre_the_cap_mean_misses():
    """The visible part of a 3 cm ball seen from one side: the points' mean lies toward
    the camera, the fitted sphere's centre where the ball is."""
    rng = np.random.default_rng(0)
    directions = rng.normal(size=(400, 3))
    directions /= np.linalg.norm(directions, axis=1)[:, None]
    seen = directions[directions @ np.array([0.6, 0.0, 0.8]) > 0.2]      # the camera's side
    centre = np.array([0.5, -0.2, 0.652])
    points = centre + 0.03 * seen + rng.normal(scale=2e-4, size=seen.shape)
    fitted, radius = fit_sphere(points)
    assert np.linalg.norm(fitted - centre) < 1e-3 and radius == pytest.approx(0.03, abs=1e-3)
    assert np.linalg.norm(points.mean(axis=0)[:2] - centre[:2]) > 0.01


def test_extents_along_a_given_direction_measure_an_ellipse_along_its_own_axes():
    """An ellipse 68 x 53 mm turned 30 degrees: measured along its axes it is 68 by 53;
    along the world's axes its sides are something else."""
    t = np.linspace(0, 2 * math.pi, 400, endpoint=False)
    local = np.column_stack([0.034 * np.cos(t), 0.0265 * np.sin(t)])
    turn = math.radians(30.0)
    xy = local @ np.array([[math.cos(turn), math.sin(turn)], [-math.sin(turn), math.cos(turn)]]) + (0.5, 0.1)
    assert extents_along(xy, turn) == pytest.approx((0.068, 0.053), abs=2e-4)
    assert extents_along(xy, turn + math.pi / 2) == pytest.approx((0.053, 0.068), abs=2e-4)
    assert extents_along(xy, 0.0)[0] < 0.066
    assert extents_along(xy, turn, pad=0.002)[0] == pytest.approx(0.070, abs=2e-4)


def test_fit_circle_and_quaternions():
    t = np.linspace(0, 1.5 * math.pi, 50)        # three quarters of a ring
    cx, cy, r = fit_circle(np.column_stack([0.3 + 0.08 * np.cos(t), -0.2 + 0.08 * np.sin(t)]))
    assert (cx, cy, r) == pytest.approx((0.3, -0.2, 0.08), abs=1e-9)
    q = quat_from_yaw(0.7)
    assert quat_from_matrix(matrix_from_quat(q)) == pytest.approx(q, abs=1e-12)
    flip = np.diag([1.0, -1.0, -1.0])
    assert quat_from_matrix(flip) == pytest.approx((1.0, 0.0, 0.0, 0.0), abs=1e-12)


def test_depth_jumps_split_touching_surfaces_and_cut_pixels_rejoin_their_side():
    """Two flat patches side by side in the image, 5 cm apart in depth: the cut runs
    between them and every cut pixel goes back to the patch it belongs to."""
    from robot_tasks.perception.depth_edges import jump_pixels, reattach

    h, w = 6, 8
    depth = np.ones((h, w), dtype=np.float32)
    depth[:, 4:] = 1.05                                    # right half farther away
    uu, vv = np.meshgrid(np.arange(w) * 0.003, np.arange(h) * 0.003)
    points = np.stack([uu, vv, -depth], axis=-1)           # world z = -depth (looking down)
    cut = jump_pixels(points, depth)
    assert cut[:, 4].all() and cut.sum() == h              # only the far side of the step
    n, labels = cv2.connectedComponents((~cut).view(np.uint8), connectivity=4, ltype=cv2.CV_32S)
    assert n - 1 == 2
    joined = reattach(labels, cut, points)
    assert (joined[:, 4:] == joined[0, 5]).all() and (joined[:, :4] == joined[0, 0]).all()
    assert joined[0, 0] != joined[0, 5]


@pytest.mark.parametrize("yaw_deg", [0.0, 20.0, 45.0])
def test_corner_share_tells_a_disc_from_a_square(yaw_deg):
    """A 5 cm square (a cube from above) fills its rectangle's corners, a 6 cm disc (a lemon) does not."""
    from robot_tasks.perception.geometry import corner_share

    grid = np.stack(np.meshgrid(np.linspace(-0.03, 0.03, 61), np.linspace(-0.03, 0.03, 61)), axis=-1).reshape(-1, 2)
    c, s = math.cos(math.radians(yaw_deg)), math.sin(math.radians(yaw_deg))
    rot = np.array([[c, -s], [s, c]])
    disc = grid[np.linalg.norm(grid, axis=1) <= 0.03] @ rot.T
    square = grid[np.max(np.abs(grid), axis=1) <= 0.025] @ rot.T
    assert corner_share(disc, min_area_rectangle(disc)) == 0.0
    assert corner_share(square, min_area_rectangle(square)) > 0.05
