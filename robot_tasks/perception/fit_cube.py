"""Pose of a square-based box resting on a face (our 5 cm cubes), from one blob's pixels.

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
"""
from __future__ import annotations

import math

import numpy as np

from robot_tasks.perception.catalog import ObjectSpec
from robot_tasks.perception.detection import Detection
from robot_tasks.perception.fit_common import (expected_pixels, fold_angle, hidden_sides,
                                               recenter_hidden, size_score, top_layer)
from robot_tasks.perception.geometry import min_area_rectangle, quat_from_yaw
from robot_tasks.perception.segment import Segment

MIN_TOP_PIXELS = 12
MIN_TOP_SHARE = 0.25       # less of the expected top face than this: the top is hidden
SIDES_ONLY_TRUST = 0.6     # how much a pose from the sides alone is believed
SIZE_TOLERANCE = 0.25      # relative error at which the size score has fallen to 1/e
MOSTLY_SEEN = 0.7          # below this share of the top face the cube counts as truncated


def _footprint_fit(seg: Segment, keep: np.ndarray, nominal: tuple[float, float]):
    """Rectangle through the points ``keep``, re-centred off hidden sides, and its score."""
    xy = seg.points[keep, :2]
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


def fit_cube(spec: ObjectSpec, seg: Segment, support_height: float | None) -> Detection | None:
    """A Detection for ``spec`` if the blob looks like that box, else None."""
    sx, sy, sz = spec.size
    if seg.pixel_count < MIN_TOP_PIXELS:
        return None
    keep, z_top = top_layer(seg, tolerance=max(0.006, 0.12 * sz))
    top_seen = min(float(keep.sum()) / max(expected_pixels(sx * sy, seg, keep), 1.0), 1.0)
    if keep.sum() < MIN_TOP_PIXELS or top_seen < MIN_TOP_SHARE:
        top_seen = 0.0
        if support_height is not None and 0.3 * sz < z_top - support_height < sz:
            z_top = support_height + sz          # standing on the support, top hidden
    # Footprint from the top face alone, or from every point: the sides are vertical, so
    # seen from above they fall on the footprint's edges. The second wins when the top is
    # partly covered (a rotated cube stacked on it) but the sides show.
    nominal = (sx, sy)    # square base (the catalogue checks), so either side matches
    fits = [_footprint_fit(seg, np.ones(seg.pixel_count, dtype=bool), nominal)]
    if top_seen > 0:
        fits.insert(0, _footprint_fit(seg, keep, nominal))
    score, rect, center, extents, hidden = max(fits, key=lambda fit: fit[0])
    confidence = score * max(top_seen, SIDES_ONLY_TRUST if top_seen < MOSTLY_SEEN else 0.0)
    if confidence < spec.min_confidence:
        return None
    height = sz
    if support_height is not None and abs((z_top - support_height) - sz) < 0.3 * sz:
        height = z_top - support_height
    yaw = fold_angle(rect.yaw, math.pi / 2)     # a square looks the same every quarter turn
    return Detection(
        label=spec.label,
        position=(float(center[0]), float(center[1]), float(z_top - sz / 2.0)),
        orientation=quat_from_yaw(yaw),
        size=(float(extents[0]), float(extents[1]), float(height)),
        confidence=float(confidence),
        pixel_count=seg.pixel_count,
        upside_down=None,
        bbox=seg.bbox,
        truncated=bool(hidden or top_seen < MOSTLY_SEEN),
    )
