"""HSV conversion, connected components and plane-geometry fits against references."""
from __future__ import annotations

import colorsys
import math

import numpy as np
import pytest

from robot_tasks.perception.color import ColorClass, rgb_to_hsv
from robot_tasks.perception.components import label_components
from robot_tasks.perception.geometry import (fit_circle, matrix_from_quat, min_area_rectangle,
                                             quat_from_matrix, quat_from_yaw)


def test_rgb_to_hsv_matches_colorsys():
    rng = np.random.default_rng(0)
    rgb = rng.integers(0, 256, size=(40, 40, 3), dtype=np.uint8)
    rgb[0, :3] = [[10, 10, 10], [255, 0, 0], [0, 0, 0]]           # grey, pure red, black
    h, s, v = rgb_to_hsv(rgb)
    for (r, g, b), hh, ss, vv in zip(rgb.reshape(-1, 3), h.reshape(-1), s.reshape(-1), v.reshape(-1)):
        eh, es, ev = colorsys.rgb_to_hsv(r / 255, g / 255, b / 255)
        assert ss == pytest.approx(es, abs=1e-5) and vv == pytest.approx(ev, abs=1e-5)
        if es > 0:
            assert (hh - eh * 360 + 180) % 360 - 180 == pytest.approx(0, abs=1e-3)


def test_red_band_wraps_through_zero():
    red = ColorClass("red", ((340.0, 15.0),))
    h = np.array([350.0, 5.0, 30.0, 200.0])
    m = red.mask(h, np.ones(4), np.ones(4))
    assert m.tolist() == [True, True, False, False]


def _flood_fill_reference(mask, connectivity):
    h, w = mask.shape
    lab = np.zeros((h, w), int)
    steps = [(-1, 0), (1, 0), (0, -1), (0, 1)]
    if connectivity == 8:
        steps += [(-1, -1), (-1, 1), (1, -1), (1, 1)]
    n = 0
    for r in range(h):
        for c in range(w):
            if mask[r, c] and not lab[r, c]:
                n += 1
                lab[r, c] = n
                stack = [(r, c)]
                while stack:
                    a, b = stack.pop()
                    for da, db in steps:
                        x, y = a + da, b + db
                        if 0 <= x < h and 0 <= y < w and mask[x, y] and not lab[x, y]:
                            lab[x, y] = n
                            stack.append((x, y))
    return lab, n


@pytest.mark.parametrize("connectivity", [4, 8])
def test_components_match_flood_fill(connectivity):
    rng = np.random.default_rng(connectivity)
    for _ in range(60):
        mask = rng.random((int(rng.integers(1, 25)), int(rng.integers(1, 25)))) < rng.uniform(0.2, 0.7)
        got, n = label_components(mask, connectivity)
        ref, n_ref = _flood_fill_reference(mask, connectivity)
        assert n == n_ref
        assert np.array_equal(got, ref)      # same raster-order numbering too


def test_components_reject_bad_arguments():
    with pytest.raises(ValueError, match="connectivity"):
        label_components(np.ones((3, 3), bool), 6)
    with pytest.raises(ValueError, match="2-D"):
        label_components(np.ones(3, bool))
    labels, n = label_components(np.zeros((4, 5), bool))
    assert n == 0 and not labels.any()


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
    labels, n = label_components(np.ones((h, w), bool) & ~cut, connectivity=4)
    assert n == 2
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
