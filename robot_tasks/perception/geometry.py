"""Small geometry helpers: rotations as quaternions, rectangle and circle fits in the plane.

Quaternions are (x, y, z, w), the order of geometry_msgs/Quaternion and PyBullet.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np


def quat_from_yaw(yaw: float) -> tuple[float, float, float, float]:
    """Rotation by ``yaw`` radians about the world z axis."""
    return (0.0, 0.0, math.sin(yaw / 2.0), math.cos(yaw / 2.0))


def quat_from_matrix(rot: np.ndarray) -> tuple[float, float, float, float]:
    """Unit quaternion (x, y, z, w) of a 3x3 rotation matrix, with w >= 0."""
    m = np.asarray(rot, dtype=float)
    trace = m[0, 0] + m[1, 1] + m[2, 2]
    # Pick the largest diagonal term to divide by, for numerical stability.
    if trace > 0:
        s = 2.0 * math.sqrt(trace + 1.0)
        q = [(m[2, 1] - m[1, 2]) / s, (m[0, 2] - m[2, 0]) / s, (m[1, 0] - m[0, 1]) / s, 0.25 * s]
    elif m[0, 0] > m[1, 1] and m[0, 0] > m[2, 2]:
        s = 2.0 * math.sqrt(1.0 + m[0, 0] - m[1, 1] - m[2, 2])
        q = [0.25 * s, (m[0, 1] + m[1, 0]) / s, (m[0, 2] + m[2, 0]) / s, (m[2, 1] - m[1, 2]) / s]
    elif m[1, 1] > m[2, 2]:
        s = 2.0 * math.sqrt(1.0 + m[1, 1] - m[0, 0] - m[2, 2])
        q = [(m[0, 1] + m[1, 0]) / s, 0.25 * s, (m[1, 2] + m[2, 1]) / s, (m[0, 2] - m[2, 0]) / s]
    else:
        s = 2.0 * math.sqrt(1.0 + m[2, 2] - m[0, 0] - m[1, 1])
        q = [(m[0, 2] + m[2, 0]) / s, (m[1, 2] + m[2, 1]) / s, 0.25 * s, (m[1, 0] - m[0, 1]) / s]
    q = np.array(q)
    q /= np.linalg.norm(q)
    if q[3] < 0:
        q = -q
    return tuple(float(v) for v in q)


def matrix_from_quat(q) -> np.ndarray:
    """3x3 rotation matrix of a quaternion (x, y, z, w)."""
    x, y, z, w = np.asarray(q, dtype=float) / np.linalg.norm(q)
    return np.array([
        [1 - 2 * (y * y + z * z), 2 * (x * y - z * w), 2 * (x * z + y * w)],
        [2 * (x * y + z * w), 1 - 2 * (x * x + z * z), 2 * (y * z - x * w)],
        [2 * (x * z - y * w), 2 * (y * z + x * w), 1 - 2 * (x * x + y * y)],
    ])


@dataclass(frozen=True)
class Rectangle:
    """An oriented rectangle in the xy plane: centre, side lengths, and the yaw of side 0."""

    center: tuple[float, float]
    extents: tuple[float, float]
    yaw: float

    def axes(self) -> np.ndarray:
        """Unit vectors of the two sides as rows: (2, 2)."""
        return axes_of(self.yaw)


def _extents(local: np.ndarray, trim: float) -> tuple[np.ndarray, np.ndarray]:
    """Low and high coordinates of points (N, 2) on each axis, ignoring ``trim`` of them at each end."""
    if trim > 0:
        bounds = np.array([[quantile(local[:, axis], q) for axis in range(2)] for q in (trim, 1.0 - trim)])
        return bounds[0], bounds[1]
    return local.min(axis=0), local.max(axis=0)


def quantile(values: np.ndarray, q: float) -> float:
    """``np.quantile(values, q)`` (linear interpolation) by a partial sort around two
    elements; numpy's own call costs several times more on the few hundred points of a blob."""
    at = q * (len(values) - 1)
    lo = int(math.floor(at))
    hi = min(lo + 1, len(values) - 1)
    part = np.partition(values, (lo, hi))
    return float(part[lo] + (part[hi] - part[lo]) * (at - lo))


def min_area_rectangle(xy: np.ndarray, pad: float = 0.0, trim: float = 0.0) -> Rectangle:
    """The smallest-area oriented rectangle around 2-D points, sides grown by ``pad``.

    The smallest rectangle around a point set has one side on an edge of the set's convex
    hull (Freeman and Shapira, "Determining the minimum-area encasing rectangle for an
    arbitrary closed curve", CACM 1975): between two such directions the area is a concave
    function of the angle, so its minimum sits at one of them. The same holds for the
    padded area (a + pad)(b + pad) = ab + pad (a + b) + pad^2, a sum of such concave
    terms. So: the hull from OpenCV (``cv2.convexHull``), then every hull edge's direction
    tried at once. (``cv2.minAreaRect`` minimises the unpadded area; on thin shapes, such
    as the two side faces of a cube held under a hand, the padded minimum can lie at
    another edge, a quarter turn away.)

    ``pad`` is added to both side lengths (the points are pixel centres, so the true surface
    reaches about one pixel footprint further). ``trim`` ignores that fraction of points at
    each end of each axis (outliers): the rectangle of all points sets the axes, the
    points outside its trimmed extents are dropped, and the rectangle of the rest is
    measured with trimmed extents. The yaw returned is in [0, pi/2): a rectangle looks the
    same after a quarter turn with its sides swapped.

    PCA cannot do this job for squares: a square's covariance is the same in every
    direction, so its principal axes carry no yaw at all.
    """
    xy = np.asarray(xy, dtype=float).reshape(-1, 2)
    mean = xy.mean(axis=0)
    pts = xy - mean                # centred, so the float32 that minAreaRect takes loses nothing
    yaw = _hull_yaw(pts, pad)
    if trim > 0:
        local = pts @ axes_of(yaw).T
        lo, hi = _extents(local, trim)
        inside = np.all((local >= lo) & (local <= hi), axis=1)
        if inside.sum() >= 3:
            yaw = _hull_yaw(pts[inside], pad)
    axes = axes_of(yaw)
    lo, hi = _extents(pts @ axes.T, trim)
    mid = (lo + hi) / 2.0
    center = mean + mid @ axes
    return Rectangle(center=(float(center[0]), float(center[1])),
                     extents=(float(hi[0] - lo[0] + pad), float(hi[1] - lo[1] + pad)), yaw=yaw)


def extents_along(xy: np.ndarray, yaw: float, pad: float = 0.0, trim: float = 0.0) -> tuple[float, float]:
    """Side lengths of the rectangle around 2-D points whose side 0 points along ``yaw``
    (not the smallest one: its direction is given), grown and trimmed as in
    ``min_area_rectangle``."""
    pts = np.asarray(xy, dtype=float).reshape(-1, 2)
    lo, hi = _extents((pts - pts.mean(axis=0)) @ axes_of(yaw).T, trim)
    return float(hi[0] - lo[0] + pad), float(hi[1] - lo[1] + pad)


def axes_of(yaw: float) -> np.ndarray:
    """Unit vectors (rows) along ``yaw`` and a quarter turn on: the sides of a rectangle."""
    c, s = math.cos(yaw), math.sin(yaw)
    return np.array([[c, s], [-s, c]])


def _hull_yaw(pts: np.ndarray, pad: float) -> float:
    """Direction in [0, pi/2) of a side of the smallest padded rectangle around ``pts``."""
    if len(pts) < 2:
        return 0.0
    index = cv2.convexHull(pts.astype(np.float32), returnPoints=False)
    hull = pts[index.reshape(-1)]
    edges = np.concatenate([hull[1:], hull[:1]]) - hull
    angles = np.arctan2(edges[:, 1], edges[:, 0]) % (math.pi / 2)
    c, s = np.cos(angles), np.sin(angles)
    along = hull @ np.stack([c, s])              # (hull points, directions)
    across = hull @ np.stack([-s, c])
    area = (along.max(axis=0) - along.min(axis=0) + pad) * (across.max(axis=0) - across.min(axis=0) + pad)
    return float(angles[int(np.argmin(area))])


def corner_share(xy: np.ndarray, rect: Rectangle, radius_fraction: float = 0.15) -> float:
    """Share of the points within ``radius_fraction`` x the short side of a corner of ``rect``.

    A disc never reaches the corners of its bounding square (its closest approach is
    (sqrt(2) - 1) / 2 = 0.21 of the side), while a square fills them: points within 0.15 of
    the side from a corner are about 7 % of a square's and none of a disc's. So this tells
    a round object from a box of the same size and colour, seen from above.
    """
    xy = np.asarray(xy, dtype=float).reshape(-1, 2)
    if len(xy) == 0:
        return 0.0
    local = np.abs((xy - np.asarray(rect.center)) @ rect.axes().T)      # (|u|, |v|) in the rectangle
    half = np.asarray(rect.extents) / 2.0
    radius = radius_fraction * min(rect.extents)
    return float((np.linalg.norm(local - half, axis=1) < radius).mean())


def fit_sphere(points: np.ndarray) -> tuple[np.ndarray, float]:
    """Least-squares sphere (centre, radius) through points in any dimension: a circle for
    2-D points, a sphere for 3-D ones (the algebraic Kasa fit).

    |p - c|^2 = r^2 is linear in (c, k = r^2 - |c|^2): 2 p.c + k = |p|^2, so one linear
    least-squares solve finds it (Kasa, IEEE Trans. Instrum. Meas. 1976). It needs no
    start guess and uses every point, so a patch of the surface (the part a camera sees)
    already places the centre, where the patch's own mean lies on the surface, toward
    the camera."""
    pts = np.asarray(points, dtype=float)
    a = np.column_stack([2 * pts, np.ones(len(pts))])
    b = (pts ** 2).sum(axis=1)
    solution, *_ = np.linalg.lstsq(a, b, rcond=None)
    centre = solution[:-1]
    return centre, math.sqrt(max(solution[-1] + float(centre @ centre), 0.0))


def fit_circle(xy: np.ndarray) -> tuple[float, float, float]:
    """Least-squares circle (cx, cy, r) through 2-D points (fit_sphere in the plane).

    OpenCV has no circle fit of this kind: ``cv2.fitEllipse`` fits five parameters where a
    bowl's rim seen from above needs three, and is less steady on the partial arcs a banana
    lying across the rim leaves; ``cv2.minEnclosingCircle`` is pulled by every stray point.
    """
    (cx, cy), r = fit_sphere(np.asarray(xy, dtype=float).reshape(-1, 2))
    return float(cx), float(cy), r
