"""Did the object end up in the bowl? Two parts, each reported on its own.

After the release and a settle, from the object's and the bowl's axis-aligned boxes:

    rim_radius       = half the bowl's smaller horizontal extent
    within_footprint = |object_xy - bowl_xy| < min(success_tol, rim_radius)
    inside_bowl      = object box bottom < bowl rim z - rim_margin   (rim z = bowl box top)
    success          = within_footprint and inside_bowl

An object resting on the rim is within the footprint but not inside; one that rolled off
is inside neither. For a table point target there is no rim: only the footprint counts
(with success_tol). Pure: the demo feeds it the sim's ground truth; nothing in the tree
reads it.
"""
from __future__ import annotations

import math
from dataclasses import asdict, dataclass


@dataclass(frozen=True)
class Box:
    """Axis-aligned box, world frame, metres."""

    minimum: tuple[float, float, float]
    maximum: tuple[float, float, float]

    @property
    def center_xy(self) -> tuple[float, float]:
        return ((self.minimum[0] + self.maximum[0]) / 2.0, (self.minimum[1] + self.maximum[1]) / 2.0)


@dataclass(frozen=True)
class PlacementCheck:
    within_footprint: bool
    inside_bowl: bool
    success: bool
    xy_distance: float        # m, object centre to target centre
    footprint_radius: float   # m, the bound within_footprint used
    object_bottom_z: float    # m
    rim_z: float | None       # m (None: a table point)

    def as_dict(self) -> dict:
        return {k: (round(v, 4) if isinstance(v, float) else v) for k, v in asdict(self).items()}

    def summary(self) -> str:
        return (f"within_footprint={self.within_footprint} ({self.xy_distance * 100:.1f} cm < "
                f"{self.footprint_radius * 100:.1f} cm), inside_bowl={self.inside_bowl}"
                + (f" (bottom {self.object_bottom_z:.3f} m < rim {self.rim_z:.3f} m - margin)"
                   if self.rim_z is not None else "")
                + f" -> success={self.success}")


def judge_in_bowl(obj: Box, bowl: Box, success_tol: float, rim_margin: float) -> PlacementCheck:
    """The two-part check against a bowl (see the module docstring)."""
    ox, oy = obj.center_xy
    bx, by = bowl.center_xy
    distance = math.hypot(ox - bx, oy - by)
    rim_radius = min(bowl.maximum[0] - bowl.minimum[0], bowl.maximum[1] - bowl.minimum[1]) / 2.0
    radius = min(success_tol, rim_radius)
    within = distance < radius
    rim_z = bowl.maximum[2]
    inside = obj.minimum[2] < rim_z - rim_margin
    return PlacementCheck(bool(within), bool(inside), bool(within and inside), float(distance), float(radius),
                          float(obj.minimum[2]), float(rim_z))


def judge_at_point(obj: Box, point_xy, success_tol: float) -> PlacementCheck:
    """A table point target: the footprint part only (inside_bowl is reported true)."""
    ox, oy = obj.center_xy
    distance = math.hypot(ox - point_xy[0], oy - point_xy[1])
    within = distance < success_tol
    return PlacementCheck(bool(within), True, bool(within), float(distance), float(success_tol),
                          float(obj.minimum[2]), None)
