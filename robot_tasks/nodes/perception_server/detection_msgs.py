"""robot_tasks.perception.Detection -> robot_tasks_interfaces/DetectedObject(Array).

    objects = detected_objects(keep(detections, labels, min_confidence))

Ids are unique within one result: the label itself when the label occurs once
(``red_cube``), else the label numbered in the detector's order (``bin_1``, ``bin_2``:
sorted by position, so the same scene gives the same ids; not tracked over time).
"""
from __future__ import annotations

from collections import Counter
from typing import Iterable, Sequence

from visualization_msgs.msg import Marker, MarkerArray

from robot_tasks_interfaces.msg import DetectedObject, DetectedObjectArray

MARKER_NAMESPACE = "detections"
MARKER_RGBA = (1.0, 0.85, 0.1, 0.5)     # translucent yellow boxes over the sim's own markers


def keep(detections: Iterable, labels: Sequence[str] = (), min_confidence: float = 0.0) -> list:
    """Detections whose label is in `labels` (empty = all) and confidence >= min_confidence."""
    wanted = set(labels)
    return [d for d in detections
            if (not wanted or d.label in wanted) and d.confidence >= min_confidence]


def orientation_class(detection) -> str:
    """Which way up: only known for objects where the detector tells (bins)."""
    if detection.upside_down is None:
        return DetectedObject.ORIENTATION_UNKNOWN
    return DetectedObject.ORIENTATION_UPSIDE_DOWN if detection.upside_down else DetectedObject.ORIENTATION_UPRIGHT


def detected_object(detection, object_id: str) -> DetectedObject:
    msg = DetectedObject(label=detection.label, id=object_id, confidence=float(detection.confidence),
                         orientation_class=orientation_class(detection))
    pos, quat = msg.pose.position, msg.pose.orientation
    pos.x, pos.y, pos.z = (float(v) for v in detection.position)
    quat.x, quat.y, quat.z, quat.w = (float(v) for v in detection.orientation)
    msg.size.x, msg.size.y, msg.size.z = (float(v) for v in detection.size)
    return msg


def detected_objects(detections: Sequence) -> list[DetectedObject]:
    """One DetectedObject per detection, with result-unique ids."""
    totals = Counter(d.label for d in detections)
    seen: Counter = Counter()
    out = []
    for d in detections:
        seen[d.label] += 1
        object_id = d.label if totals[d.label] == 1 else f"{d.label}_{seen[d.label]}"
        out.append(detected_object(d, object_id))
    return out


def set_stamp_ns(stamp, nanoseconds: int) -> None:
    """Write integer nanoseconds into a builtin_interfaces/Time in place."""
    stamp.sec, stamp.nanosec = divmod(int(nanoseconds), 1_000_000_000)


def detection_array(detections: Sequence, stamp_ns: int, frame_id: str) -> DetectedObjectArray:
    """The `detections` topic message: all objects of one frame, stamped with its capture time."""
    msg = DetectedObjectArray(objects=detected_objects(detections))
    msg.header.frame_id = frame_id
    set_stamp_ns(msg.header.stamp, stamp_ns)
    return msg


def detection_markers(array: DetectedObjectArray) -> MarkerArray:
    """The detections as rviz2 boxes: clear the last frame's, then one box per object
    (its pose and size; the id as text), so objects no longer seen disappear."""
    clear = Marker(ns=MARKER_NAMESPACE, action=Marker.DELETEALL)
    clear.header = array.header
    markers = [clear]
    for k, obj in enumerate(array.objects):
        m = Marker(ns=MARKER_NAMESPACE, id=k, type=Marker.CUBE, action=Marker.ADD, pose=obj.pose, text=obj.id)
        m.header = array.header
        m.scale.x, m.scale.y, m.scale.z = (max(v, 1e-3) for v in (obj.size.x, obj.size.y, obj.size.z))
        m.color.r, m.color.g, m.color.b, m.color.a = MARKER_RGBA
        markers.append(m)
    return MarkerArray(markers=markers)
