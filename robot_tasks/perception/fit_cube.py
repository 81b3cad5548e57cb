"""Pose of a square-based box (our 5 cm cubes), from one blob's pixels.

Seen from above, the visible top face is what can be measured well; the sides show only
as slivers that depend on where the cube sits in the image. So:

* the top face = the points within a few millimetres of the blob's highest surface;
* yaw and xy centre = the smallest rectangle around the top face (not PCA: a square has
  no principal axis), the centre being the middle of the rectangle, not the mean of the
  points, which leans toward the side the camera sees more of;
* z = top-face height minus half the cube's height (the centroid of visible points would
  sit too high by about half the cube);
* a side cut by the image border or hidden behind something nearer is not trusted: the
  centre is put half a cube from the opposite, visible side.

When the top face is partly or wholly hidden (another cube stacked on it), the side
faces still show. They are vertical, so seen from above they fall on the edges of the
footprint and the rectangle around all the blob's points is the footprint again; the
fitter tries both point sets and keeps the one whose rectangle matches the cube's size.
With the top hidden the height comes from the support (the cube stands on the table)
when that fits what is visible.

A cube that came to rest tilted (leaning on another after a knock) shows its top face
as a sloping plane; the few millimetres below its highest point are then only a strip
along the high edge, too narrow for a cube. When a least-squares plane
through that band tilts by more than MIN_SUSPECT_TILT (cheap, and a hint only: the side
faces' upper strips bias it), the face that is up is found as the blob's dominant plane
within 45 degrees of level (RANSAC on image-neighbour samples, plane.py; a cube tilted
further has another face nearer level), and everything above
is measured again in that face's frame: "height" along its normal, the rectangle in
its plane. The more confident of the two readings wins; a tilted one carries the tilt
(the detection's z axis is the face's normal). A cube tilted by less than about 4
degrees is reported level.
"""
from __future__ import annotations

import math

import numpy as np

from robot_tasks.perception.catalog import ObjectSpec
from robot_tasks.perception.detection import Detection
from robot_tasks.perception.fit_common import (
    expected_pixels,
    fold_angle,
    hidden_sides,
    recenter_hidden,
    size_score,
    top_layer,
)
from robot_tasks.perception.geometry import min_area_rectangle, quat_from_matrix, quat_from_yaw
from robot_tasks.perception.plane import face_frame
from robot_tasks.perception.segment import Segment

MIN_TOP_PIXELS = 12
MIN_TOP_SHARE = 0.25       # less of the expected top face than this: the top is hidden
SIDES_ONLY_TRUST = 0.6     # how much a pose from the sides alone is believed
SIZE_TOLERANCE = 0.25      # relative error at which the size score has fallen to 1/e
MOSTLY_SEEN = 0.7          # below this share of the top face the cube counts as truncated
MIN_SUSPECT_TILT = math.radians(4.0)   # a top layer tilted less is level: no plane search
MAX_TILT = math.radians(45.0)     # beyond this another face of the cube is nearer level
LEVEL_TILT = math.radians(3.0)    # a face plane nearer level than this is level


def _too_long(xy: np.ndarray, spec: ObjectSpec) -> bool:
    """True when no rectangle around these points can score ``spec.min_confidence``.

    Any rectangle around points is at least as long, diagonally, as the longest side of
    their axis-aligned box, so its longer side is at least that over sqrt(2); once that
    is so far beyond the cube's side that its size score alone falls below the
    threshold, the fit cannot pass. Lets a bin-sized blob skip the cube's rectangles.
    """
    if len(xy) == 0:
        return True
    longest = float(np.max(xy.max(axis=0) - xy.min(axis=0))) / math.sqrt(2.0)
    limit = spec.size[0] * (1.0 + SIZE_TOLERANCE * math.sqrt(math.log(1.0 / max(spec.min_confidence, 1e-9))))
    return longest > limit


def _top_layer_tilt(seg: Segment, spec: ObjectSpec) -> float:
    """Tilt [rad] of the least-squares plane through the blob's top layer (world z band).

    Cheap (a 3 x 3 eigenproblem), and biased by the side faces' upper strips in that band,
    so only a hint: level cubes give at most 2.5 degrees (96 cubes of franka_stacking at
    320 x 240 and 640 x 480), cubes leaning at 10-40 degrees 6.6 or more.
    """
    keep, _ = top_layer(seg, tolerance=max(0.006, 0.12 * spec.size[2]))
    if keep.sum() < 3:
        return 0.0
    centred = seg.points[keep] - seg.points[keep].mean(axis=0)
    normal = np.linalg.eigh(centred.T @ centred)[1][:, 0]     # smallest spread: the normal
    return math.acos(min(1.0, abs(float(normal[2]))))


def _footprint_fit(seg: Segment, local: np.ndarray, keep: np.ndarray, nominal: tuple[float, float]):
    """Rectangle through the points ``keep`` (face-frame xy), re-centred off hidden sides, and its score."""
    xy = local[keep, :2]
    pad = seg.footprint(keep)
    rect = min_area_rectangle(xy, pad=pad)
    sides = hidden_sides(rect, xy, seg.at_hidden_edge[keep], band=1.5 * pad)
    center, extents, corrected = recenter_hidden(rect, xy, sides, nominal, pad)
    score = 1.0
    for axis in range(2):
        if not corrected[axis]:
            score *= size_score(extents[axis], nominal[axis], SIZE_TOLERANCE)
    hidden = any(corrected) or any(any(s) for s in sides)
    return score, rect, center, extents, hidden


def _read(spec: ObjectSpec, seg: Segment, support_height: float | None,
          frame: np.ndarray | None) -> Detection | None:
    """The cube measured in ``frame`` (rows u, v, n; None = the world frame, level)."""
    sx, sy, sz = spec.size
    level = frame is None
    local = seg.points if level else seg.points @ frame.T
    keep, z_top = top_layer(seg, tolerance=max(0.006, 0.12 * sz), heights=None if level else local[:, 2])
    everything = np.ones(seg.pixel_count, dtype=bool)
    if level and _too_long(local[:, :2], spec) and _too_long(local[keep, :2], spec):
        return None
    normal = (0.0, 0.0, 1.0) if level else tuple(frame[2])
    top_seen = min(float(keep.sum()) / max(expected_pixels(sx * sy, seg, keep, normal), 1.0), 1.0)
    if keep.sum() < MIN_TOP_PIXELS or top_seen < MIN_TOP_SHARE:
        top_seen = 0.0
        if level and support_height is not None and 0.3 * sz < z_top - support_height < sz:
            z_top = support_height + sz          # standing on the support, top hidden
    # Footprint from the top face alone, or from every point: the sides are perpendicular
    # to it, so seen along its normal they fall on the footprint's edges. The second wins
    # when the top is partly covered (a rotated cube stacked on it) but the sides show.
    nominal = (sx, sy)    # square base (the catalogue checks), so either side matches
    fits = [_footprint_fit(seg, local, everything, nominal)]
    if top_seen > 0:
        fits.insert(0, _footprint_fit(seg, local, keep, nominal))
    score, rect, center, extents, hidden = max(fits, key=lambda fit: fit[0])
    confidence = score * max(top_seen, SIDES_ONLY_TRUST if top_seen < MOSTLY_SEEN else 0.0)
    if confidence < spec.min_confidence:
        return None
    height = sz
    if level and support_height is not None and abs((z_top - support_height) - sz) < 0.3 * sz:
        height = z_top - support_height
    yaw = fold_angle(rect.yaw, math.pi / 2)     # a square looks the same every quarter turn
    position = np.array([center[0], center[1], z_top - sz / 2.0])
    if level:
        orientation = quat_from_yaw(yaw)
    else:
        position = position @ frame
        c, s = math.cos(yaw), math.sin(yaw)
        orientation = quat_from_matrix(frame.T @ np.array([[c, -s, 0.0], [s, c, 0.0], [0.0, 0.0, 1.0]]))
    return Detection(
        label=spec.label,
        position=(float(position[0]), float(position[1]), float(position[2])),
        orientation=orientation,
        size=(float(extents[0]), float(extents[1]), float(height)),
        confidence=float(confidence),
        pixel_count=seg.pixel_count,
        upside_down=None,
        bbox=seg.bbox,
        truncated=bool(hidden or top_seen < MOSTLY_SEEN),
    )


def fit_cube(spec: ObjectSpec, seg: Segment, support_height: float | None) -> Detection | None:
    """A Detection for ``spec`` if the blob looks like that box, level or tilted, else None."""
    if seg.pixel_count < MIN_TOP_PIXELS:
        return None
    level = _read(spec, seg, support_height, None)
    # A tilted cube is no longer along any direction than its 3-D diagonal.
    span = seg.points.max(axis=0) - seg.points.min(axis=0)
    if float(np.max(span[:2])) > math.sqrt(3.0) * spec.size[0] * 1.2 \
            or _top_layer_tilt(seg, spec) < MIN_SUSPECT_TILT:
        return level
    frame = face_frame(seg.points, MAX_TILT, LEVEL_TILT, pixels=(seg.rows, seg.cols))
    tilted = None if np.array_equal(frame, np.eye(3)) else _read(spec, seg, support_height, frame)
    readings = [r for r in (level, tilted) if r is not None]
    return max(readings, key=lambda r: r.confidence) if readings else None
