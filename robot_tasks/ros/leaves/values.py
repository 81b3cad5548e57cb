"""Turn what a tree author writes in a port into the numbers a goal needs.

ROS-free on purpose (plain dicts/lists/strings in, plain tuples out), so the
rules are easy to unit-test. Every function raises ValueError with a message
that says what was expected and what arrived; the action leaves turn that into
INVALID_GOAL.
"""
from __future__ import annotations

import math
from typing import Any

POSE_KEYS = ("x", "y", "z", "qx", "qy", "qz", "qw")


def parse_float_list(value: Any, what: str = "value") -> list[float]:
    """"0.1; 0.2;0.3", [0.1, "0.2"], (1, 2) -> [0.1, 0.2, 0.3]; NaN/inf refused."""
    if isinstance(value, str):
        parts = [p.strip() for p in value.split(";")]
        if parts == [""]:
            return []
    elif isinstance(value, (list, tuple)):
        parts = list(value)
    else:
        raise ValueError(f"{what}: expected a list or a 'a;b;c' string, got {value!r}")
    numbers = []
    for i, part in enumerate(parts):
        try:
            number = float(part)
        except (TypeError, ValueError):
            raise ValueError(f"{what}[{i}]: {part!r} is not a number") from None
        if not math.isfinite(number):
            raise ValueError(f"{what}[{i}]: {part!r} is not finite")
        numbers.append(number)
    return numbers


def parse_string_list(value: Any, what: str = "value") -> list[str]:
    """"a; b;c" or ["a", "b"] -> ["a", "b", "c"] (empty items dropped)."""
    if isinstance(value, str):
        items = value.split(";")
    elif isinstance(value, (list, tuple)):
        items = value
    else:
        raise ValueError(f"{what}: expected a list or a 'a;b;c' string, got {value!r}")
    return [str(item).strip() for item in items if str(item).strip()]


def parse_pose(value: Any) -> tuple[tuple[float, float, float], tuple[float, float, float, float], str | None]:
    """A pose in any form a tree can hold -> ((x, y, z), (qx, qy, qz, qw), frame_id or None).

    Accepted:
    - "x;y;z" (identity orientation) or "x;y;z;qx;qy;qz;qw";
    - a list/tuple of 3 or 7 numbers;
    - {"x":..,"y":..,"z":.., "qx":..,"qy":..,"qz":..,"qw":.., "frame_id": ..} (q* optional);
    - a geometry_msgs Pose / PoseStamped as a dict ({"position": {...}, "orientation": {...}}
      or {"header": {"frame_id": ..}, "pose": {...}}), e.g. from message_to_dict;
    - a detection dict (DetectedObject as a dict: its "pose" is used);
    - a geometry_msgs Pose or PoseStamped message object (anything with .position/.pose).
    The quaternion must be finite and non-zero; it is normalised.
    """
    frame = None
    if hasattr(value, "header") and hasattr(value, "pose"):  # PoseStamped message
        frame = value.header.frame_id
        value = value.pose
    if hasattr(value, "position") and hasattr(value, "orientation"):  # Pose message
        p, o = value.position, value.orientation
        return (*_checked((p.x, p.y, p.z), (o.x, o.y, o.z, o.w)), frame)
    if isinstance(value, dict):
        return _pose_from_dict(value)
    if isinstance(value, str) or isinstance(value, (list, tuple)):
        numbers = parse_float_list(value, "pose")
        if len(numbers) == 3:
            return (*_checked(numbers, (0.0, 0.0, 0.0, 1.0)), None)
        if len(numbers) == 7:
            return (*_checked(numbers[:3], numbers[3:]), None)
        raise ValueError(f"pose: expected 3 (x;y;z) or 7 (x;y;z;qx;qy;qz;qw) numbers, got {len(numbers)}")
    raise ValueError(f"pose: can't read a pose from {value!r}")


def _pose_from_dict(data: dict):
    frame = None
    if "header" in data and isinstance(data["header"], dict):
        frame = data["header"].get("frame_id")
    if "pose" in data and isinstance(data["pose"], dict):  # PoseStamped or DetectedObject
        position, orientation, inner_frame = _pose_from_dict(data["pose"])
        return position, orientation, frame if frame is not None else inner_frame
    if "position" in data:
        p = data.get("position") or {}
        o = data.get("orientation") or {"w": 1.0}
        numbers = [_number(p, k, "pose.position", 0.0) for k in "xyz"]
        quat = [_number(o, k, "pose.orientation", 0.0) for k in "xyz"] + [
            _number(o, "w", "pose.orientation", 0.0)]
        return (*_checked(numbers, quat), frame)
    if all(k in data for k in "xyz"):
        numbers = [_number(data, k, "pose", 0.0) for k in "xyz"]
        quat = [_number(data, k, "pose", 0.0) for k in ("qx", "qy", "qz")] + [_number(data, "qw", "pose", 1.0)]
        return (*_checked(numbers, quat), data.get("frame_id", frame))
    raise ValueError(f"pose: a mapping needs x/y/z, position/orientation or pose keys, got keys "
                     f"{sorted(data)}")


def _number(data: dict, key: str, where: str, default: float) -> float:
    value = data.get(key, default)
    try:
        number = float(value)
    except (TypeError, ValueError):
        raise ValueError(f"{where}.{key}: {value!r} is not a number") from None
    return number


def _checked(position, quaternion):
    position = tuple(float(v) for v in position)
    quaternion = tuple(float(v) for v in quaternion)
    if not all(math.isfinite(v) for v in position + quaternion):
        raise ValueError(f"pose: every number must be finite, got {position + quaternion}")
    norm = math.sqrt(sum(v * v for v in quaternion))
    if norm < 1e-9:
        raise ValueError("pose: the orientation quaternion is zero")
    return position, tuple(v / norm for v in quaternion)


def choice(value: Any, options: dict[str, int], what: str) -> int:
    """A case-insensitive name from `options` (or its number) -> the number."""
    text = str(value).strip().lower()
    if text in options:
        return options[text]
    if text.isdigit() and int(text) in options.values():
        return int(text)
    raise ValueError(f"{what}: {value!r} is not one of {'|'.join(options)}")
