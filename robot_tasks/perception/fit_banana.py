"""Pose of a banana-like object: long, curved, lying roughly flat.

From above it is a curved band. Its length axis is the long side of the smallest
rectangle around its pixels (robust to the curve, where PCA of a crescent tilts toward
the bulge). Its xy position is the area-weighted mean of its visible surface: for a band
of even thickness that is the centre of mass seen from above, where a grasp through the
middle goes. Only its upper surface is used for that (see the comment in fit_banana).
It is told apart from a same-coloured cube by size: a 5 cm cube does not fill a
19 x 6 cm rectangle.
"""
from __future__ import annotations

import math

import numpy as np

from robot_tasks.perception.catalog import ObjectSpec
from robot_tasks.perception.detection import Detection
from robot_tasks.perception.fit_common import expected_pixels, fold_angle, size_score
from robot_tasks.perception.geometry import min_area_rectangle, quat_from_yaw
from robot_tasks.perception.segment import Segment

LENGTH_TOLERANCE = 0.3      # bananas vary, and tilted ones look shorter
MIN_PIXELS = 30
# Seen from above, a banana lying flat is ~6 cm across its curve, one lying on its side
# only its thickness (3.3-3.8 cm measured): any width from 0.6 x thickness to 2 x the
# flat width is a banana, the score only falls outside that.


def fit_banana(spec: ObjectSpec, seg: Segment, support_height: float | None) -> Detection | None:
    """A Detection for ``spec`` if the blob is about the banana's size, else None."""
    if seg.pixel_count < MIN_PIXELS:
        return None
    length, across, thickness = spec.size
    xy = seg.points[:, :2]
    pad = seg.footprint()
    # The rectangle's long side is at most the points' diameter, at most their box's
    # diagonal: a blob whose diagonal is far too short for a banana is not fitted at all.
    longest = float(np.hypot(*(xy.max(axis=0) - xy.min(axis=0)))) + pad
    if longest < length and size_score(longest, length, LENGTH_TOLERANCE) < spec.min_confidence:
        return None
    rect = min_area_rectangle(xy, pad=pad, trim=0.005)
    long_axis = 0 if rect.extents[0] >= rect.extents[1] else 1
    measured_long, measured_across = rect.extents[long_axis], rect.extents[1 - long_axis]
    score = size_score(measured_long, length, LENGTH_TOLERANCE)
    lo, hi = 0.6 * thickness, 2.0 * across
    if not lo <= measured_across <= hi:
        nearest = lo if measured_across < lo else hi
        score *= size_score(measured_across, nearest, 0.3)
    # At least a length x thickness strip shows, however it lies.
    seen = seg.pixel_count / max(expected_pixels(length * thickness, seg), 1.0)
    truncated = bool(seg.at_hidden_edge.mean() > 0.05)
    confidence = score * min(seen, 1.0)
    if confidence < spec.min_confidence:
        return None
    yaw = fold_angle(rect.yaw + (math.pi / 2 if long_axis == 1 else 0.0), math.pi)
    # Only the upper third of the banana's local height: an oblique camera sees the flank
    # facing it, which would pull the centre toward the camera. "Local" because a banana
    # resting on a bowl's rim is tilted: heights are compared within 1 cm slices along
    # its length. Each pixel covers depth^2 / fx^2 of surface: weight by it, or the end
    # nearer the camera (more pixels per cm) would pull the same way.
    along = xy @ rect.axes()[long_axis]
    upper = _upper_surface(along, seg.points[:, 2], slice_m=0.01, depth_m=thickness / 3.0)
    weight = seg.depth[upper] ** 2
    centre = (xy[upper] * weight[:, None]).sum(axis=0) / weight.sum()
    z_top = float((seg.points[upper, 2] * weight).sum() / weight.sum())
    return Detection(
        label=spec.label,
        position=(float(centre[0]), float(centre[1]), z_top - thickness / 2.0),
        orientation=quat_from_yaw(yaw),
        size=(float(measured_long), float(measured_across), float(thickness)),
        confidence=float(confidence),
        pixel_count=seg.pixel_count,
        upside_down=None,
        bbox=seg.bbox,
        truncated=truncated,
    )


def _upper_surface(along: np.ndarray, z: np.ndarray, slice_m: float, depth_m: float) -> np.ndarray:
    """Points within ``depth_m`` of the highest point of their slice along the length."""
    bins = np.floor((along - along.min()) / slice_m).astype(int)
    top = np.full(bins.max() + 1, -np.inf)
    np.maximum.at(top, bins, z)
    return z >= top[bins] - depth_m
