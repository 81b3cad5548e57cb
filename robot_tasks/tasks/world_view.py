"""What the tree knows about the world: perception detections and the tool pose, as plain numbers.

Task leaves never read simulator ground truth. They read two blackboard entries:

- `detections`: a list of perception results, each shaped like
  `robot_tasks_interfaces/msg/DetectedObject` -- as the dict `message_to_dict` makes
  (what the DetectObjects leaf and TopicToBlackboard write), or the message itself.
  A whole `DetectedObjectArray` (dict or message) is accepted too.
- `ee_pose`: the tool (TCP) pose in the world frame, as anything
  `robot_tasks.ros.leaves.values.parse_pose` reads; here only its position matters.

This module turns both into `Seen` records / xyz tuples. No ROS import.

A detection's orientation is kept whole, not only its yaw: a cube that came to rest
leaning on another is reported tilted (perception's z axis is then its top face's
normal), and a task that grasps it needs to know which of its faces stayed vertical.
`Seen.axes()` gives the object's three axes in the world, `Seen.tilt` how far the most
upright of them leans from world z; a level object has tilt 0 and `yaw` says it all.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from robot_tasks.tasks.errors import TaskError

Vec3 = tuple[float, float, float]
Quaternion = tuple[float, float, float, float]    # x, y, z, w


class WorldViewError(TaskError):
    """A detection or pose that cannot be read; the message says which field."""


@dataclass(frozen=True)
class Seen:
    """One detected object: where its centre is, how it is turned, its size, confidence.

    `yaw` is the turn about world z, all a level object needs. `orientation` is the whole
    rotation as perception reported it, a unit quaternion (x, y, z, w); None when only a
    yaw is known, which then stands for a level object turned by `yaw`.
    """

    label: str
    position: Vec3
    yaw: float = 0.0
    size: Vec3 = (0.0, 0.0, 0.0)
    confidence: float = 1.0
    orientation: Quaternion | None = None

    def axes(self) -> tuple[Vec3, Vec3, Vec3]:
        """The object's own x, y and z axes as world unit vectors."""
        if self.orientation is None:
            return axes_of_quaternion(0.0, 0.0, math.sin(self.yaw / 2.0), math.cos(self.yaw / 2.0))
        return axes_of_quaternion(*self.orientation)

    @property
    def tilt(self) -> float:
        """How far [rad] the object's most upright axis leans from world z: 0 when level.

        Any axis counts (a cube looks the same whichever face is up), so a cube lying on
        its side is level too; at most about 55 degrees (a cube standing on a corner)."""
        return math.acos(min(1.0, max(abs(axis[2]) for axis in self.axes())))


def field_of(obj: Any, name: str, default: Any = None) -> Any:
    """`obj[name]` of a dict (a YAML goal, a test) or `obj.name` of a message; `default` if absent."""
    if isinstance(obj, dict):
        return obj.get(name, default)
    return getattr(obj, name, default)


def xyz_of(obj: Any, what: str) -> Vec3:
    """(x, y, z) of a Point/Vector3 (message or dict); WorldViewError naming `what` if not finite numbers."""
    try:
        values = tuple(float(field_of(obj, k, 0.0)) for k in "xyz")
    except (TypeError, ValueError):
        raise WorldViewError(f"{what}: x/y/z must be numbers, got {obj!r}") from None
    if not all(math.isfinite(v) for v in values):
        raise WorldViewError(f"{what}: x/y/z must be finite, got {values}")
    return values  # type: ignore[return-value]


def yaw_from_quaternion(qx: float, qy: float, qz: float, qw: float) -> float:
    """Rotation about world z of a body frame given by a unit quaternion (x, y, z, w)."""
    return math.atan2(2.0 * (qw * qz + qx * qy), 1.0 - 2.0 * (qy * qy + qz * qz))


def axes_of_quaternion(qx: float, qy: float, qz: float, qw: float) -> tuple[Vec3, Vec3, Vec3]:
    """The columns of the rotation matrix of a unit quaternion (x, y, z, w): where the
    body's x, y and z axes point in the world."""
    return ((1.0 - 2.0 * (qy * qy + qz * qz), 2.0 * (qx * qy + qw * qz), 2.0 * (qx * qz - qw * qy)),
            (2.0 * (qx * qy - qw * qz), 1.0 - 2.0 * (qx * qx + qz * qz), 2.0 * (qy * qz + qw * qx)),
            (2.0 * (qx * qz + qw * qy), 2.0 * (qy * qz - qw * qx), 1.0 - 2.0 * (qx * qx + qy * qy)))


def seen_from_detection(detection: Any) -> Seen:
    """One DetectedObject (dict or message) -> Seen. Raises WorldViewError."""
    label = field_of(detection, "label")
    if not isinstance(label, str) or not label:
        raise WorldViewError(f"detection without a label: {detection!r}")
    pose = field_of(detection, "pose")
    if pose is None:
        raise WorldViewError(f"detection '{label}' has no pose")
    position = xyz_of(field_of(pose, "position"), f"detection '{label}' pose.position")
    orientation = field_of(pose, "orientation")
    yaw, rotation = 0.0, None
    if orientation is not None:
        q = [float(field_of(orientation, k, 0.0)) for k in ("x", "y", "z")] + [float(field_of(orientation, "w", 1.0))]
        norm = math.sqrt(sum(v * v for v in q))
        if norm > 1e-6:     # (a zero or NaN quaternion: no orientation, as before)
            yaw = yaw_from_quaternion(*q)
            rotation = tuple(v / norm for v in q)
    size_field = field_of(detection, "size")
    size = xyz_of(size_field, f"detection '{label}' size") if size_field is not None else (0.0, 0.0, 0.0)
    confidence = float(field_of(detection, "confidence", 1.0) or 0.0)
    return Seen(label, position, yaw, size, confidence, rotation)


def seen_by_label(detections: Any) -> dict[str, Seen]:
    """All detections keyed by label; with several of one label the most confident wins.

    None or an empty list -> {} (nothing seen). Raises WorldViewError on malformed input.
    """
    if detections is None:
        return {}
    objects = field_of(detections, "objects") if not isinstance(detections, (list, tuple)) else detections
    if objects is None:
        raise WorldViewError(f"detections must be a list of DetectedObject, got {type(detections).__name__}")
    result: dict[str, Seen] = {}
    for detection in detection_list(objects):
        seen = seen_from_detection(detection)
        best = result.get(seen.label)
        if best is None or seen.confidence > best.confidence:
            result[seen.label] = seen
    return result


def detection_list(objects: Any) -> list:
    """The detections as a list; WorldViewError for a string, a dict or a non-iterable."""
    if isinstance(objects, (str, bytes, dict)):
        raise WorldViewError(f"detections must be a list, got {type(objects).__name__}")
    try:
        return list(objects)
    except TypeError:
        raise WorldViewError(f"detections must be a list, got {type(objects).__name__}") from None


def stamp_seconds(stamp: Any) -> float | None:
    """builtin_interfaces/Time (dict or message) or a number -> seconds; None if absent."""
    if stamp is None:
        return None
    if isinstance(stamp, (int, float)) and not isinstance(stamp, bool):
        return float(stamp)
    sec, nanosec = field_of(stamp, "sec"), field_of(stamp, "nanosec", 0)
    if sec is None:
        return None
    return float(sec) + float(nanosec or 0) * 1e-9


def detections_stamp(detections: Any) -> float | None:
    """Capture time of a whole DetectedObjectArray (its header.stamp) in seconds, or None
    for a bare list of detections (which carries no time)."""
    if detections is None or isinstance(detections, (list, tuple)):
        return None
    header = field_of(detections, "header")
    seconds = stamp_seconds(field_of(header, "stamp")) if header is not None else None
    return seconds if seconds else None  # a zero stamp means "not stamped"


def position_of_pose(pose: Any) -> Vec3:
    """The position of a pose in any form parse_pose reads (dict, 'x;y;z', PoseStamped...)."""
    if isinstance(pose, dict) and all(k in pose for k in "xyz"):
        return xyz_of(pose, "pose")
    if isinstance(pose, dict) and "pose" in pose:
        return position_of_pose(pose["pose"])
    if isinstance(pose, dict) and "position" in pose:
        return xyz_of(pose["position"], "pose.position")
    if hasattr(pose, "pose"):
        return position_of_pose(pose.pose)
    if hasattr(pose, "position"):
        return xyz_of(pose.position, "pose.position")
    if isinstance(pose, (list, tuple)) and len(pose) in (3, 7):
        return xyz_of(dict(zip("xyz", pose)), "pose")
    if isinstance(pose, str):
        parts = [p for p in pose.split(";") if p.strip()]
        if len(parts) in (3, 7):
            return xyz_of(dict(zip("xyz", parts)), "pose")
    raise WorldViewError(f"can't read a position from {pose!r}")


def distance(a: Vec3, b: Vec3) -> float:
    return math.dist(a, b)


def horizontal_distance(a: Vec3, b: Vec3) -> float:
    return math.hypot(a[0] - b[0], a[1] - b[1])
