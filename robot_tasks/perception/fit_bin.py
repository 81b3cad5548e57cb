"""Pose of an open-top bin, and whether it lies upside down.

Upright, a bin seen from above shows a thin rim at its top height and, inside the rim,
its floor far below. Upside down it shows its closed bottom: one flat face at the top
height covering the whole outline. So the test looks only at the middle of the outline
(the inner half in each direction, where no wall is): if most points there are at the
top height, the closed side faces up.

Pose: the smallest rectangle around the top-height points (the rim ring or the closed
face) gives the centre and the yaw; the centre lies half the bin's height below the top.

A bin that came to rest tilted (one end on the conveyor's stop, say) is measured in the
frame of its own top face: the largest near-level plane in its points (plane.py) gives
the face's normal, and "height" becomes the distance along that normal. Everything
above then works unchanged in that frame, and the detection's orientation carries the
tilt (its z axis is the normal of the face that is up). A bin within `LEVEL_TILT` of
level is measured in the world frame, as a flat bin always was.
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

SIZE_TOLERANCE = 0.25
MIN_TOP_PIXELS = 30
INNER = 0.25                # the inner region spans +-INNER of each side length from the centre
CLOSED_SHARE = 0.5          # share of inner points at the top height that means "closed face up"
LEVEL_TILT = math.radians(3.0)    # a face closer to level than this is measured in the world frame
MAX_TILT = math.radians(35.0)     # steeper planes are walls, not the face that is up


def fit_bin(spec: ObjectSpec, seg: Segment, support_height: float | None) -> Detection | None:
    """A Detection for ``spec`` if the blob is a bin of about its size, else None."""
    length, width, height = spec.size
    # However its top face tilts (up to MAX_TILT), it covers no fewer pixels than when tilted
    # away from the camera by that much: if even then too little of it shows, stop before
    # looking for the face's plane (a cube-sized blob is no bin).
    down = max(-float(seg.view_dir[2]), 1e-9)            # cosine of the view's angle from vertical
    steepest = math.cos(min(math.acos(min(down, 1.0)) + MAX_TILT, math.pi / 2))
    least = expected_pixels(length * width, seg) * steepest / down
    if steepest > 1e-6 and seg.pixel_count / max(least, 1.0) < spec.min_confidence:
        return None
    frame = face_frame(seg.points, MAX_TILT, LEVEL_TILT)
    level = bool(np.array_equal(frame, np.eye(3)))
    local = seg.points @ frame.T
    # the top layer along the face's normal (world z for a level bin)
    top, h_top = top_layer(seg, tolerance=max(0.01, 0.08 * height), heights=local[:, 2])
    if int(top.sum()) < MIN_TOP_PIXELS:
        return None
    xy_top = local[top, :2]
    pad = seg.footprint(top)
    rect = min_area_rectangle(xy_top, pad=pad, trim=0.002)
    long_axis = 0 if rect.extents[0] >= rect.extents[1] else 1
    nominal = (length, width) if long_axis == 0 else (width, length)
    sides = hidden_sides(rect, xy_top, seg.at_hidden_edge[top], band=2.0 * pad)
    center, extents, corrected = recenter_hidden(rect, xy_top, sides, nominal, pad)

    # Inside the outline, away from the walls: closed face (top height) or the floor?
    in_rect = (local[:, :2] - center) @ rect.axes().T
    inner = (np.abs(in_rect[:, 0]) < INNER * extents[0]) & (np.abs(in_rect[:, 1]) < INNER * extents[1])
    if int(inner.sum()) < 5:
        return None
    closed_share = float(top[inner].mean())
    upside_down = closed_share >= CLOSED_SHARE

    score = 1.0
    for axis in range(2):
        if not corrected[axis]:
            score *= size_score(extents[axis], nominal[axis], SIZE_TOLERANCE)
    seen = seg.pixel_count / max(expected_pixels(length * width, seg, normal=tuple(frame[2])), 1.0)
    # A clear-cut inner region (all top or all floor) is a confident up/down call.
    decisiveness = 0.5 + abs(closed_share - 0.5)
    confidence = score * min(seen, 1.0) * decisiveness
    if confidence < spec.min_confidence:
        return None
    yaw = fold_angle(rect.yaw + (math.pi / 2 if long_axis == 1 else 0.0), math.pi)
    measured_height = height
    if level and support_height is not None and abs((h_top - support_height) - height) < 0.3 * height:
        measured_height = h_top - support_height
    position = np.array([center[0], center[1], h_top - height / 2.0]) @ frame
    if level:
        orientation = quat_from_yaw(yaw)
    else:
        c, s = math.cos(yaw), math.sin(yaw)
        orientation = quat_from_matrix(frame.T @ np.array([[c, -s, 0.0], [s, c, 0.0], [0.0, 0.0, 1.0]]))
    return Detection(
        label=spec.label,
        position=(float(position[0]), float(position[1]), float(position[2])),
        orientation=orientation,
        size=(float(extents[long_axis]), float(extents[1 - long_axis]), float(measured_height)),
        confidence=float(confidence),
        pixel_count=seg.pixel_count,
        upside_down=upside_down,
        bbox=seg.bbox,
        truncated=any(corrected) or bool(np.any(sides)),
    )
