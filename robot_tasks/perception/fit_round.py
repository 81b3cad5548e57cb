"""Pose of a near-spherical object (a lemon, a plum): a round blob with a domed top.

Centre. An oblique camera sees the dome and the flank facing it, so the mean of the
pixels, or of the top cap alone, lies toward the camera (4.5-7.3 mm on the sim's lemons,
from a camera 1.5 m up and 0.4 m to the side). The points lie on the object's surface
wherever they are seen from, so a sphere fitted through its upper part puts the centre
where it is, within 2.4 mm on those same lemons (seeds 0-9 of the banana_bowl scene).
The top is the top cap's height and the centre lies half the nominal height below it (a
lemon lies on its side: its height is its width, not a radius off the fitted centre). A
fit that comes out far from the blob, or of an implausible radius (too few points, a blob
cut by an occluder), gives way to the top cap's mean.

Yaw. A lemon is longer than it is wide (6.8 by 5.3 cm, lying on its side). Fingers that
close along its length meet its pointed ends, and a squeeze there pushes them open or
lets it slip; closed across, they hold its waist. From above its outline is nearly a disc
(the low, steep ends mostly fall outside the segment), but its dome is not: along the
length it curves less (radius a^2/b, about 9 cm) than across (b, 2.7 cm). So a quadratic
surface z(x, y) fitted through the dome's points gives the direction of the length as the
eigenvector of least curvature of its Hessian (within 11 degrees of the truth on the sim's
lemons, curvatures 1.3-1.5 apart). The yaw is that direction (as for the banana) when
the two curvatures differ clearly; an evenly curved dome reports yaw 0.

Footprint. Round means both sides about the nominal length and width, which also tells it
apart from a same-coloured banana (19 x 6 cm), and no pixels in the rectangle's corners,
which tells it apart from a same-coloured cube of about its size (seen with noisy colour
and depth, a yellow 5 cm cube otherwise passed for a lemon). The size reported is the
outline's extent along the yaw and across it, so the box and its orientation agree.
"""
from __future__ import annotations

import math

import numpy as np

from robot_tasks.perception.catalog import ObjectSpec
from robot_tasks.perception.detection import Detection
from robot_tasks.perception.fit_common import expected_pixels, fold_angle, size_score, top_layer
from robot_tasks.perception.geometry import corner_share, extents_along, fit_sphere, min_area_rectangle, quat_from_yaw
from robot_tasks.perception.segment import Segment

SIZE_TOLERANCE = 0.3
MIN_PIXELS = 20
CAP_FRACTION = 0.35    # the top cap: points within this fraction of the height below the top
DOME_FRACTION = 0.6    # the sphere is fitted through the points this far below the top
MAX_CORNER_SHARE = 0.02   # a square has ~7 % of its points in the corners, a disc none
ELONGATED = 1.2        # curvature ratio across / along from which the dome has a length
MIN_SPHERE_POINTS = 30


def fit_round(spec: ObjectSpec, seg: Segment, support_height: float | None) -> Detection | None:
    """A Detection for ``spec`` if the blob is a disc of about its size, else None."""
    if seg.pixel_count < MIN_PIXELS:
        return None
    length, width, height = spec.size
    xy = seg.points[:, :2]
    rect = min_area_rectangle(xy, pad=seg.footprint(), trim=0.003)
    long_axis = 0 if rect.extents[0] >= rect.extents[1] else 1
    long_side, short_side = rect.extents[long_axis], rect.extents[1 - long_axis]
    if corner_share(xy, rect) > MAX_CORNER_SHARE:
        return None                                       # square corners: a box, not a disc
    score = size_score(long_side, length, SIZE_TOLERANCE) * size_score(short_side, width, SIZE_TOLERANCE)
    seen = seg.pixel_count / max(expected_pixels(math.pi * length * width / 4.0, seg), 1.0)
    confidence = score * min(seen, 1.0)
    if confidence < spec.min_confidence:
        return None
    cap, z_top = top_layer(seg, tolerance=CAP_FRACTION * height)
    dome = seg.points[seg.points[:, 2] >= z_top - DOME_FRACTION * height]
    centre = _sphere_centre(dome, width)
    if centre is None:
        weight = seg.depth[cap] ** 2              # each pixel's share of surface
        centre = (xy[cap] * weight[:, None]).sum(axis=0) / weight.sum()
    yaw = _length_direction(dome)
    along, across = extents_along(xy, yaw, pad=seg.footprint(), trim=0.003)
    measured_height = height if support_height is None else max(z_top - support_height, 0.5 * height)
    return Detection(
        label=spec.label,
        position=(float(centre[0]), float(centre[1]), z_top - measured_height / 2.0),
        orientation=quat_from_yaw(yaw),
        size=(along, across, float(measured_height)),
        confidence=float(confidence),
        pixel_count=seg.pixel_count,
        upside_down=None,
        bbox=seg.bbox,
        truncated=bool(seg.at_hidden_edge.mean() > 0.05),
    )


def _sphere_centre(dome: np.ndarray, width: float) -> np.ndarray | None:
    """The xy of a sphere fitted through the dome's points, or None when the fit is not
    believable: a radius off the object's by more than half, or a centre outside the
    dome's own xy extent."""
    if len(dome) < MIN_SPHERE_POINTS:
        return None
    centre, radius = fit_sphere(dome)
    low, high = dome[:, :2].min(axis=0), dome[:, :2].max(axis=0)
    if not 0.5 * width / 2.0 <= radius <= 1.5 * width / 2.0 or np.any(centre[:2] < low) or np.any(centre[:2] > high):
        return None
    return centre[:2]


def _length_direction(dome: np.ndarray) -> float:
    """The yaw of the dome's direction of least curvature, folded into [-pi/2, pi/2); 0 for
    an evenly curved dome, or too few points to tell."""
    if len(dome) < MIN_SPHERE_POINTS:
        return 0.0
    x, y, z = (dome - dome.mean(axis=0)).T
    terms = np.column_stack([np.ones_like(x), x, y, x * x, x * y, y * y])
    c, *_ = np.linalg.lstsq(terms, z, rcond=None)
    curvature, directions = np.linalg.eigh(np.array([[2.0 * c[3], c[4]], [c[4], 2.0 * c[5]]]))
    flat, steep = sorted(range(2), key=lambda i: abs(curvature[i]))
    if abs(curvature[steep]) < ELONGATED * max(abs(curvature[flat]), 1e-9):
        return 0.0
    along = directions[:, flat]
    return fold_angle(math.atan2(along[1], along[0]), math.pi)
