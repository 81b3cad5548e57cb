"""The largest flat face in a blob's points, found by RANSAC.

A box that lies tilted (one end on a ledge, leaning on a neighbour) shows its top face
as a sloping plane. Its height band -- the points within a centimetre of the highest one,
which is how a level face is found -- then holds only a strip along the high edge, far
too small for the box's outline. Knowing the face's plane first lets a fitter measure
heights along the face's normal instead of world z, and the face is whole again.

RANSAC (random sample consensus): pick three points at random, take the plane through
them, count the points within a few millimetres of it; the plane with the most such
inliers wins, and a least-squares fit to its inliers refines it. Seen from above, a
box's largest faces are its top and, if open, its floor -- both parallel -- while its
walls are steep; so only planes within `max_tilt` of level are candidates. The random
samples come from a fixed seed: the same image always gives the same answer.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

MAX_SAMPLE_POINTS = 2000      # a subsample is enough to find the plane and keeps it cheap
ITERATIONS = 64
NEIGHBOUR_STEP_PX = 3         # image distance between the points of a neighbour sample


@dataclass(frozen=True)
class Plane:
    normal: np.ndarray          # unit vector, pointing up (positive world z)
    offset: float               # normal . p for points p on the plane
    inliers: int                # points of the subsample within the threshold

    @property
    def tilt(self) -> float:
        """Angle between the plane and level ground [rad]."""
        return math.acos(min(1.0, float(self.normal[2])))


def _refined_normal(points: np.ndarray) -> np.ndarray:
    """Least-squares plane normal through ``points`` (the smallest principal axis), pointing up."""
    centred = points - points.mean(axis=0)
    normal = np.linalg.svd(centred, full_matrices=False)[2][-1]
    return normal if normal[2] >= 0 else -normal


def _neighbour_triples(pixels: tuple[np.ndarray, np.ndarray], rng: np.random.Generator):
    """(3, k) point indices, k <= ITERATIONS: random anchors with both neighbours present."""
    rows, cols = (np.asarray(x, dtype=np.intp) for x in pixels)
    r0, c0 = rows.min(), cols.min()
    lookup = np.full((rows.max() - r0 + 1 + NEIGHBOUR_STEP_PX, cols.max() - c0 + 1 + NEIGHBOUR_STEP_PX),
                     -1, dtype=np.intp)
    lookup[rows - r0, cols - c0] = np.arange(len(rows))
    anchors = rng.integers(0, len(rows), size=4 * ITERATIONS)
    r, c = rows[anchors] - r0, cols[anchors] - c0
    below, beside = lookup[r + NEIGHBOUR_STEP_PX, c], lookup[r, c + NEIGHBOUR_STEP_PX]
    ok = (below >= 0) & (beside >= 0)
    if not ok.any():
        return None
    return np.stack([anchors[ok], below[ok], beside[ok]])[:, :ITERATIONS]


def dominant_plane(points: np.ndarray, max_tilt: float, threshold: float = 0.004,
                   seed: int = 0, pixels: tuple[np.ndarray, np.ndarray] | None = None) -> Plane | None:
    """The near-level plane holding the most of ``points`` (N x 3, metres), or None.

    ``max_tilt`` [rad] bounds how far from level a candidate may be; ``threshold`` is the
    inlier distance. None when fewer than three points or no candidate qualifies.

    ``pixels`` (rows, cols of each point in the image) makes each sample three image
    neighbours: a point and the points ``NEIGHBOUR_STEP_PX`` below and beside it (the
    idea of NAPSAC, Myatt et al., BMVC 2002: points close together lie on one surface
    far more often than points drawn anywhere). On a small blob whose wanted face holds
    only a tenth of its points -- a leaning cube seen at a grazing angle, its steeper
    side filling the view -- three points drawn anywhere almost never all lie on that
    face; a point drawn there and its neighbours usually do.
    """
    if len(points) < 3:
        return None
    rng = np.random.default_rng(seed)
    if pixels is not None:
        triples = _neighbour_triples(pixels, rng)
        if triples is None:
            return None
        a, b, c = (points[idx] for idx in triples)
    else:
        if len(points) > MAX_SAMPLE_POINTS:
            points = points[rng.choice(len(points), MAX_SAMPLE_POINTS, replace=False)]
        a, b, c = (points[idx] for idx in rng.integers(0, len(points), size=(3, ITERATIONS)))
    min_up = math.cos(max_tilt)
    # All candidate planes at once: a point triple per row, its normal, every point's distance.
    normals = np.cross(b - a, c - a)
    lengths = np.linalg.norm(normals, axis=1)
    usable = lengths > 1e-9
    normals[usable] /= lengths[usable, None]
    usable &= np.abs(normals[:, 2]) >= min_up          # near level, and not a degenerate triple
    if not usable.any():
        return None
    normals, a = normals[usable], a[usable]
    counts = (np.abs(points @ normals.T - np.sum(a * normals, axis=1)) < threshold).sum(axis=0)
    best = int(np.argmax(counts))
    if counts[best] < 3:
        return None
    best_count = int(counts[best])
    best_mask = np.abs((points - a[best]) @ normals[best]) < threshold
    inliers = points[best_mask]
    normal = _refined_normal(inliers)
    if normal[2] < min_up:
        return None
    return Plane(normal, float(inliers.mean(axis=0) @ normal), best_count)


def face_frame(points: np.ndarray, max_tilt: float, level_tilt: float,
               pixels: tuple[np.ndarray, np.ndarray] | None = None) -> np.ndarray:
    """Rows u, v, n: the frame of the face that is up, to measure a box in (identity when level).

    n is the normal of the points' dominant near-level plane (at most ``max_tilt`` from
    level); a plane within ``level_tilt`` of level, or none, gives the world frame. u is
    world x laid into the plane, v = n x u. Local coordinates are ``points @ frame.T``,
    world ones ``local @ frame``; a body turned by ``yaw`` in the face has the world
    rotation ``frame.T @ Rz(yaw)``. ``pixels``: see :func:`dominant_plane`.
    """
    plane = dominant_plane(points, max_tilt, pixels=pixels)
    if plane is None or plane.tilt < level_tilt:
        return np.eye(3)
    n = plane.normal
    u = np.array([1.0, 0.0, 0.0]) - n[0] * n
    u /= np.linalg.norm(u)
    return np.vstack([u, np.cross(n, u), n])
