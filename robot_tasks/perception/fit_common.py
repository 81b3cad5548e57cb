"""Pieces the shape fitters share: the top layer of a blob, hidden sides, score terms."""
from __future__ import annotations

import math

import numpy as np

from robot_tasks.perception.geometry import Rectangle, quantile
from robot_tasks.perception.segment import Segment

# A side counts as hidden when this share of the pixels along it touch a hidden edge.
HIDDEN_SIDE_SHARE = 0.3


def top_layer(seg: Segment, tolerance: float, heights: np.ndarray | None = None) -> tuple[np.ndarray, float]:
    """Pixels within ``tolerance`` metres below the blob's highest surface, and its height.

    The highest surface is found from the 98th percentile of z rather than the maximum,
    so a few stray points cannot lift it. ``heights`` replaces world z, e.g. distances
    along a tilted face's normal.
    """
    z = seg.points[:, 2] if heights is None else heights
    z_hi = quantile(z, 0.98)
    keep = z >= z_hi - tolerance
    return keep, median(z[keep])


def median(values: np.ndarray) -> float:
    """``np.median(values)``, the same way as :func:`quantile`."""
    return quantile(values, 0.5)


def hidden_sides(rect: Rectangle, xy: np.ndarray, hidden: np.ndarray,
                 band: float) -> list[tuple[bool, bool]]:
    """For each rectangle axis, whether its low and its high side are hidden.

    ``xy`` are the points the rectangle was fitted to, ``hidden`` flags those at a hidden
    edge, ``band`` (metres) is how close to a side a point must be to belong to it.
    """
    local = (xy - np.asarray(rect.center)) @ rect.axes().T
    result = []
    for axis in range(2):
        coord = local[:, axis]
        flags = []
        for near_side in (coord <= coord.min() + band, coord >= coord.max() - band):
            flags.append(bool(near_side.any() and hidden[near_side].mean() >= HIDDEN_SIDE_SHARE))
        result.append((flags[0], flags[1]))
    return result


def recenter_hidden(rect: Rectangle, xy: np.ndarray, sides: list[tuple[bool, bool]],
                    nominal: tuple[float, float], pad: float) -> tuple[np.ndarray, list[float], list[bool]]:
    """Move the centre away from a hidden side so the object keeps its nominal length.

    When only one side of an axis is hidden and the visible length falls short of the
    nominal one, the visible side is trusted and the centre put half a nominal length
    from it. Returns (centre xy, side lengths, which axes were corrected).
    """
    axes = rect.axes()
    local = (xy - np.asarray(rect.center)) @ axes.T
    center_local = np.zeros(2)
    extents = list(rect.extents)
    corrected = [False, False]
    for axis in range(2):
        lo_hidden, hi_hidden = sides[axis]
        lo = local[:, axis].min() - pad / 2
        hi = local[:, axis].max() + pad / 2
        if lo_hidden != hi_hidden and extents[axis] < 0.9 * nominal[axis]:
            center_local[axis] = (hi - nominal[axis] / 2) if lo_hidden else (lo + nominal[axis] / 2)
            extents[axis] = nominal[axis]
            corrected[axis] = True
    center = np.asarray(rect.center) + center_local @ axes
    return center, extents, corrected


def size_score(measured: float, nominal: float, tolerance: float) -> float:
    """1 for a perfect match, falling off as a Gaussian in relative error / tolerance."""
    rel = (measured - nominal) / nominal
    return math.exp(-(rel / tolerance) ** 2)


def expected_pixels(area: float, seg: Segment, keep: np.ndarray | None = None,
                    normal=(0.0, 0.0, 1.0)) -> float:
    """How many pixels a flat patch of ``area`` m^2 with this normal should cover here.

    The patch subtends area * cos(incidence) / range^2 steradians, and one pixel at angle
    a off the optical axis covers cos(a)^3 / fx^2 of them; with range = depth / cos(a)
    that is area * cos(incidence) / (cos(a) * (depth / fx)^2) pixels.
    """
    fp = seg.footprint(keep)
    if fp <= 0 or seg.axis_cos <= 0:
        return 0.0
    incidence = abs(float(np.dot(seg.view_dir, normal)))
    return area * incidence / (seg.axis_cos * fp * fp)


def fold_angle(angle: float, period: float) -> float:
    """Map an angle into [-period/2, period/2): yaw of a shape with that rotational symmetry."""
    return (angle + period / 2.0) % period - period / 2.0
