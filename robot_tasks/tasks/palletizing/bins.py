"""Bins as perception reports them, and the questions the task asks about them.

A detection (robot_tasks_interfaces/DetectedObject as a dict, or the message) gives a
bin's centre, its yaw and `orientation_class` ("upright" / "upside_down"). From a list
of them: is a bin waiting at the conveyor's end (`bin_at_pickup`), and is a pallet slot
already taken (`slot_taken`)? No ROS import; nothing here reads the simulator.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from robot_tasks.tasks.world_view import WorldViewError, detection_list, field_of, xyz_of, yaw_from_quaternion

from .cell import Cell
from .tool import fold_yaw

UPSIDE_DOWN = "upside_down"


@dataclass(frozen=True)
class SeenBin:
    position: tuple[float, float, float]
    yaw: float
    upside_down: bool
    confidence: float = 1.0


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
        yaw = yaw_from_quaternion(*(float(field_of(o, k, 1.0 if k == "w" else 0.0)) for k in "xyzw")) if o else 0.0
        found.append(SeenBin(position, fold_yaw(yaw), field_of(det, "orientation_class") == UPSIDE_DOWN,
                             float(field_of(det, "confidence", 1.0))))
    return found


def bin_at_pickup(bins: list[SeenBin], cell: Cell) -> SeenBin | None:
    """The bin whose centre is within `pickup_tolerance` of the pickup point (nearest), or None."""
    near = [(math.hypot(b.position[0] - cell.pickup_xy[0], b.position[1] - cell.pickup_xy[1]), b) for b in bins]
    near = [(d, b) for d, b in near if d <= cell.pickup_tolerance]
    return min(near, key=lambda item: item[0])[1] if near else None


def slot_taken(bins: list[SeenBin], cell: Cell, index: int, tolerance: float = 0.10) -> bool:
    """A bin is seen within `tolerance` (xy) of slot `index`'s centre. Only xy counts: over
    the pallet nothing else stands, and perception's height of a bin among touching
    neighbours is sometimes off (an upright bin's rim is thin; a slot's bin was once
    reported 10 cm low), which must not make a taken slot look free."""
    x, y, _ = cell.slot_center(index)
    return any(math.hypot(b.position[0] - x, b.position[1] - y) <= tolerance for b in bins)
