"""Pose of a near-spherical object (a lemon, a plum): a round blob with a domed top.

From above such an object shows a disc; its top cap (the highest points) sits over its
centre whichever side the camera sees it from, where the mean of all its pixels would be
pulled toward the camera by the flank facing it. So the centre's xy is the mean of the
top cap, weighted by each pixel's surface share (depth^2, as fit_banana does), the top is
the cap's height and the centre lies half the nominal height below it. The footprint is
the smallest rectangle around the pixels: round means both sides about the diameter,
which also tells it apart from a same-coloured banana (19 x 6 cm), and no pixels in the
rectangle's corners, which tells it apart from a same-coloured cube of about its size
(seen with noisy colour and depth, a yellow 5 cm cube otherwise passed for a lemon).
"""
from __future__ import annotations

import math

from robot_tasks.perception.catalog import ObjectSpec
from robot_tasks.perception.detection import Detection
from robot_tasks.perception.fit_common import expected_pixels, size_score, top_layer
from robot_tasks.perception.geometry import corner_share, min_area_rectangle
from robot_tasks.perception.segment import Segment

SIZE_TOLERANCE = 0.3
MIN_PIXELS = 20
CAP_FRACTION = 0.35    # the top cap: points within this fraction of the height below the top
MAX_CORNER_SHARE = 0.02   # a square has ~7 % of its points in the corners, a disc none


def fit_round(spec: ObjectSpec, seg: Segment, support_height: float | None) -> Detection | None:
    """A Detection for ``spec`` if the blob is a disc of about its diameter, else None."""
    if seg.pixel_count < MIN_PIXELS:
        return None
    diameter, _, height = spec.size
    xy = seg.points[:, :2]
    rect = min_area_rectangle(xy, pad=seg.footprint(), trim=0.003)
    long_side, short_side = max(rect.extents), min(rect.extents)
    if corner_share(xy, rect) > MAX_CORNER_SHARE:
        return None                                       # square corners: a box, not a disc
    score = size_score(long_side, diameter, SIZE_TOLERANCE) * size_score(short_side, diameter, SIZE_TOLERANCE)
    seen = seg.pixel_count / max(expected_pixels(math.pi * diameter ** 2 / 4.0, seg), 1.0)
    confidence = score * min(seen, 1.0)
    if confidence < spec.min_confidence:
        return None
    cap, z_top = top_layer(seg, tolerance=CAP_FRACTION * height)
    weight = seg.depth[cap] ** 2
    centre = (xy[cap] * weight[:, None]).sum(axis=0) / weight.sum()
    measured_height = height if support_height is None else max(z_top - support_height, 0.5 * height)
    return Detection(
        label=spec.label,
        position=(float(centre[0]), float(centre[1]), z_top - measured_height / 2.0),
        orientation=(0.0, 0.0, 0.0, 1.0),
        size=(float(long_side), float(short_side), float(measured_height)),
        confidence=float(confidence),
        pixel_count=seg.pixel_count,
        upside_down=None,
        bbox=seg.bbox,
        truncated=bool(seg.at_hidden_edge.mean() > 0.05),
    )
