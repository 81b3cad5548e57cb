"""Small geometry helpers: rotations as quaternions, rectangle and circle fits in the plane.

Quaternions are (x, y, z, w), the order of geometry_msgs/Quaternion and PyBullet.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

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


def wrap_angle(a: float, period: float = 2.0 * math.pi) -> float:
    """Map ``a`` into [-period/2, period/2)."""
    return (a + period / 2.0) % period - period / 2.0


@dataclass(frozen=True)
class Rectangle:
    """An oriented rectangle in the xy plane: centre, side lengths, and the yaw of side 0."""

    center: tuple[float, float]
    extents: tuple[float, float]
    yaw: float

    def axes(self) -> np.ndarray:
        """Unit vectors of the two sides as rows: (2, 2)."""
        c, s = math.cos(self.yaw), math.sin(self.yaw)
        return np.array([[c, s], [-s, c]])


def _extent_along(xy: np.ndarray, angles: np.ndarray, trim: float) -> tuple[np.ndarray, np.ndarray]:
    """Low/high (trimmed) coordinates of the points along directions at ``angles``."""
    dirs = np.stack([np.cos(angles), np.sin(angles)], axis=1)
    proj = xy @ dirs.T                                   # (N, A)
    if trim > 0:
        lo, hi = np.quantile(proj, [trim, 1.0 - trim], axis=0)
    else:
        lo, hi = proj.min(axis=0), proj.max(axis=0)
    return lo, hi


def min_area_rectangle(xy: np.ndarray, pad: float = 0.0, trim: float = 0.0) -> Rectangle:
    """The smallest-area oriented rectangle around 2-D points, by a coarse-to-fine yaw search.

    ``pad`` is added to both side lengths (the points are pixel centres, so the true surface
    reaches about one pixel footprint further). ``trim`` ignores that fraction of points at
    each end of each axis (outliers). The yaw returned is in [0, pi/2): a rectangle looks
    the same after a quarter turn with its sides swapped.

    PCA cannot do this job for squares: a square's covariance is the same in every
    direction, so its principal axes carry no yaw at all.
    """
    xy = np.asarray(xy, dtype=float).reshape(-1, 2)
    mean = xy.mean(axis=0)
    pts = xy - mean
    best = 0.0
    step = math.radians(3.0)
    angles = np.arange(0.0, math.pi / 2, step)
    for _ in range(3):                                   # 3 deg, then 0.3 deg, then 0.03 deg
        a_lo, a_hi = _extent_along(pts, angles, trim)
        b_lo, b_hi = _extent_along(pts, angles + math.pi / 2, trim)
        area = (a_hi - a_lo + pad) * (b_hi - b_lo + pad)
        best = float(angles[int(np.argmin(area))])
        step /= 10.0
        angles = best + step * np.arange(-15, 16)
    best = best % (math.pi / 2)
    a_lo, a_hi = _extent_along(pts, np.array([best]), trim)
    b_lo, b_hi = _extent_along(pts, np.array([best + math.pi / 2]), trim)
    c, s = math.cos(best), math.sin(best)
    mid_a, mid_b = (a_lo[0] + a_hi[0]) / 2, (b_lo[0] + b_hi[0]) / 2
    center = mean + mid_a * np.array([c, s]) + mid_b * np.array([-s, c])
    return Rectangle(center=(float(center[0]), float(center[1])),
                     extents=(float(a_hi[0] - a_lo[0] + pad), float(b_hi[0] - b_lo[0] + pad)),
                     yaw=best)


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


def principal_axes(xy: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Eigenvalues (descending) and unit eigenvectors (rows) of the 2-D point covariance."""
    pts = np.asarray(xy, dtype=float).reshape(-1, 2)
    cov = np.cov((pts - pts.mean(axis=0)).T)
    vals, vecs = np.linalg.eigh(cov)
    order = np.argsort(vals)[::-1]
    return vals[order], vecs[:, order].T


def fit_circle(xy: np.ndarray) -> tuple[float, float, float]:
    """Least-squares circle (cx, cy, r) through 2-D points (algebraic Kasa fit)."""
    pts = np.asarray(xy, dtype=float).reshape(-1, 2)
    a = np.column_stack([2 * pts[:, 0], 2 * pts[:, 1], np.ones(len(pts))])
    b = (pts ** 2).sum(axis=1)
    (cx, cy, c), *_ = np.linalg.lstsq(a, b, rcond=None)
    r = math.sqrt(max(c + cx * cx + cy * cy, 0.0))
    return float(cx), float(cy), r
