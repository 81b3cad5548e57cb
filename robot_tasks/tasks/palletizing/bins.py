"""Bins as perception reports them, and the questions the task asks about them.

A detection (robot_tasks_interfaces/DetectedObject as a dict, or the message) gives a
bin's centre, its orientation and `orientation_class` ("upright" / "upside_down"). The
orientation's z axis is the normal of the face that looks up: straight up for a bin lying
flat, tipped for one that came to rest tilted (on the conveyor's stop, say). From a list
of them: is a bin waiting at the conveyor's end (`bin_at_pickup`), and is a pallet slot
already taken (`slot_taken`)? No ROS import; nothing here reads the simulator.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from robot_tasks.tasks.world_view import WorldViewError, detection_list, field_of, xyz_of, yaw_from_quaternion

from .cell import Cell
from .tool import fold_yaw, z_axis

UPSIDE_DOWN = "upside_down"


@dataclass(frozen=True)
class SeenBin:
    position: tuple[float, float, float]
    yaw: float
    upside_down: bool
    confidence: float = 1.0
    footprint: tuple[float, float] | None = None   # (length, width) seen [m]; None = the nominal bin
    up: tuple[float, float, float] = (0.0, 0.0, 1.0)  # normal of the face that looks up

    @property
    def tilt(self) -> float:
        """How far the bin lies from flat [rad]."""
        return math.acos(max(-1.0, min(1.0, self.up[2])))


def seen_bins(detections: Any) -> list[SeenBin]:
    """Every detection labelled "bin"; None -> []. WorldViewError on malformed input."""
    if detections is None:
        return []
    objects = detections if isinstance(detections, (list, tuple)) else field_of(detections, "objects")
    if objects is None:
        raise WorldViewError(f"detections must be a list of DetectedObject, got {type(detections).__name__}")
    found = []
    for det in detection_list(objects):
        if field_of(det, "label") != "bin":
            continue
        pose = field_of(det, "pose")
        if pose is None:
            raise WorldViewError("detection of a bin without a pose")
        position = xyz_of(field_of(pose, "position"), "bin pose.position")
        o = field_of(pose, "orientation")
        q = tuple(float(field_of(o, k, 1.0 if k == "w" else 0.0)) for k in "xyzw") if o else (0.0, 0.0, 0.0, 1.0)
        yaw = yaw_from_quaternion(*q)
        up = _up_normal(q)
        size = field_of(det, "size")
        footprint = (float(field_of(size, "x", 0.0)), float(field_of(size, "y", 0.0))) if size is not None else None
        if footprint is not None and not (all(math.isfinite(v) for v in footprint) and min(footprint) > 0):
            footprint = None
        found.append(SeenBin(position, fold_yaw(yaw), field_of(det, "orientation_class") == UPSIDE_DOWN,
                             float(field_of(det, "confidence", 1.0)), footprint, up))
    return found


def _up_normal(q) -> tuple[float, float, float]:
    """The orientation's z axis turned to point up (a body frame of an upside-down bin has
    it pointing down; the face that is up is then its bottom); level when there is no such
    face: a zero or non-finite quaternion, or a z axis near the horizon."""
    norm = math.sqrt(sum(v * v for v in q))
    if not (math.isfinite(norm) and norm > 0):
        return (0.0, 0.0, 1.0)
    up = z_axis(tuple(v / norm for v in q))
    if abs(up[2]) < 0.1:
        return (0.0, 0.0, 1.0)
    return up if up[2] > 0 else (-up[0], -up[1], -up[2])


def bin_at_pickup(bins: list[SeenBin], cell: Cell) -> SeenBin | None:
    """The bin whose centre is within `pickup_tolerance` of the pickup point (nearest), or None."""
    near = [(math.hypot(b.position[0] - cell.pickup_xy[0], b.position[1] - cell.pickup_xy[1]), b) for b in bins]
    near = [(d, b) for d, b in near if d <= cell.pickup_tolerance]
    return min(near, key=lambda item: item[0])[1] if near else None


def overlap_depth(a_center, a_yaw: float, a_size, b_center, b_yaw: float, b_size) -> float:
    """How far two rectangles in the plane overlap [m]: the smallest overlap of their
    shadows on the four edge directions (separating-axis test). Negative: that far apart."""
    def corners(center, yaw, size):
        c, s = math.cos(yaw), math.sin(yaw)
        hx, hy = size[0] / 2, size[1] / 2
        return [(center[0] + c * x - s * y, center[1] + s * x + c * y)
                for x, y in ((hx, hy), (-hx, hy), (-hx, -hy), (hx, -hy))]

    a, b = corners(a_center, a_yaw, a_size), corners(b_center, b_yaw, b_size)
    depth = math.inf
    for yaw in (a_yaw, a_yaw + math.pi / 2, b_yaw, b_yaw + math.pi / 2):
        axis = (math.cos(yaw), math.sin(yaw))
        pa = [x * axis[0] + y * axis[1] for x, y in a]
        pb = [x * axis[0] + y * axis[1] for x, y in b]
        depth = min(depth, min(max(pa), max(pb)) - max(min(pa), min(pb)))
    return depth


def slot_taken(bins: list[SeenBin], cell: Cell, index: int, clearance: float = 0.03) -> bool:
    """A seen bin reaches more than `clearance` into slot `index`'s footprint (a bin's
    outline at the slot's centre): a bin that lies across a slot takes it, not only one
    centred on it; a neighbour a centimetre or two off its own slot does not. Only xy
    counts: over the pallet nothing else stands, and perception's height of a bin among
    touching neighbours is sometimes off, which must not make a taken slot look free."""
    x, y, _ = cell.slot_center(index)
    nominal = (cell.bin.length, cell.bin.width)
    return any(overlap_depth(b.position[:2], b.yaw, b.footprint or nominal, (x, y), 0.0, nominal) > clearance
               for b in bins)
