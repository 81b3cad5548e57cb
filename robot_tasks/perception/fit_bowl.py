"""Pose of a round open bowl: the centre of the circle through its rim.

From above a bowl shows its rim as a ring at the highest level and its inside lower
down, possibly with something lying in it (the banana, in another colour, leaves a hole
in the blob). A circle fitted to the rim ring finds the centre even when part of the
ring is hidden, where the mean of the pixels would be pulled away from the hidden part.
"""
from __future__ import annotations

import math

import numpy as np

from robot_tasks.perception.catalog import ObjectSpec
from robot_tasks.perception.detection import Detection
from robot_tasks.perception.fit_common import expected_pixels, size_score, top_layer
from robot_tasks.perception.geometry import fit_circle
from robot_tasks.perception.segment import Segment

SIZE_TOLERANCE = 0.25
MIN_RIM_PIXELS = 20


def fit_bowl(spec: ObjectSpec, seg: Segment, support_height: float | None) -> Detection | None:
    """A Detection for ``spec`` if the blob's rim is a circle of about its diameter."""
    diameter, _, height = spec.size
    seen = seg.pixel_count / max(expected_pixels(math.pi * diameter ** 2 / 4, seg), 1.0)
    if min(seen, 1.0) < spec.min_confidence:
        return None                   # too little of it even if round and of its size
    rim, z_rim = top_layer(seg, tolerance=max(0.01, 0.15 * height))
    if int(rim.sum()) < MIN_RIM_PIXELS:
        return None
    cx, cy, radius = fit_circle(seg.points[rim, :2])
    # The rim points are pixel centres just inside the outer edge: add half a pixel.
    measured = 2.0 * radius + seg.footprint(rim)
    # How round: spread of the rim points' distance to the centre, relative to the radius.
    dist = np.hypot(seg.points[rim, 0] - cx, seg.points[rim, 1] - cy)
    roundness = math.exp(-(float(np.std(dist)) / (0.15 * max(radius, 1e-6))) ** 2)
    confidence = size_score(measured, diameter, SIZE_TOLERANCE) * roundness * min(seen, 1.0)
    if confidence < spec.min_confidence:
        return None
    measured_height = height
    if support_height is not None and abs((z_rim - support_height) - height) < 0.3 * height:
        measured_height = z_rim - support_height
    return Detection(
        label=spec.label,
        position=(cx, cy, z_rim - height / 2.0),
        orientation=(0.0, 0.0, 0.0, 1.0),
        size=(measured, measured, float(measured_height)),
        confidence=float(confidence),
        pixel_count=seg.pixel_count,
        upside_down=None,
        bbox=seg.bbox,
        truncated=bool(seg.at_hidden_edge.mean() > 0.05),
    )
