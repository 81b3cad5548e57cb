"""Fill ROS 2 messages from YAML (or plain dicts), and turn messages back into dicts.

The ``ros2 topic pub`` / ``ros2 action send_goal`` way of writing a message, without
``rosidl_runtime_py`` (not on PyPI): every generated message class describes its
fields in ``SLOT_TYPES`` (rosidl_parser type objects, in field order) and
``get_fields_and_field_types()`` (names), which is all this module reads.

>>> from geometry_msgs.msg import PoseStamped
>>> msg = message_from_yaml(PoseStamped, "{header: {frame_id: world}, pose: {position: {z: 0.5}}}")
>>> msg.pose.position.z
0.5
>>> message_to_dict(msg)["header"]
{'stamp': {'sec': 0, 'nanosec': 0}, 'frame_id': 'world'}

Rules (strict where a silent conversion could hide a mistake):

- A message is a mapping; missing fields keep their defaults, unknown fields are errors.
- Floats accept ints and numeric strings ("1e-3": YAML 1.1 reads that as a string;
  ".nan", ".inf" are YAML floats); NaN/inf pass (servers must reject them).
- Integers accept ints only (no floats, no bools), range-checked for their width.
- Booleans accept true/false only. Strings accept strings only (quote "123").
- Bounded strings and sequences are length-checked; fixed arrays need the exact length.
- ``byte``/``uint8`` sequences also accept a bytes value (YAML ``!!binary``).
- ``builtin_interfaces/Time`` and ``Duration`` also accept a number of seconds (1.5).

Every error is a :class:`MessageFillError` whose text names the field path and the
expected type, e.g. ``goal.target.pose.position.x: expected float, got 'abc'``.
"""
from __future__ import annotations

import array
import importlib
import math
from typing import Any

import yaml

from robot_tasks.ros.errors import RosError

INT_RANGES = {
    "int8": (-2**7, 2**7 - 1), "uint8": (0, 2**8 - 1),
    "int16": (-2**15, 2**15 - 1), "uint16": (0, 2**16 - 1),
    "int32": (-2**31, 2**31 - 1), "uint32": (0, 2**32 - 1),
    "int64": (-2**63, 2**63 - 1), "uint64": (0, 2**64 - 1),
}
FLOAT_MAX = {"float": 3.402823466e38, "double": 1.7976931348623157e308, "long double": 1.7976931348623157e308}
TIME_TYPES = {("builtin_interfaces", "msg", "Time"), ("builtin_interfaces", "msg", "Duration")}


class MessageFillError(RosError, ValueError):
    """A value does not fit the message field it was given for.

    Attributes: ``path`` (e.g. "goal.target.pose.position.x") and ``problem``.
    """

    def __init__(self, path: str, problem: str):
        super().__init__(f"{path}: {problem}")
        self.path = path
        self.problem = problem


def _got(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def _mismatch(path: str, expected: str, value: Any) -> MessageFillError:
    return MessageFillError(path, f"expected {expected}, got {_got(value)}")


# ------------------------------------------------------------------ type names
def type_name(slot_type) -> str:
    """Readable name of a rosidl_parser type: "float64", "string<=10", "geometry_msgs/Pose[]"."""
    kind = type(slot_type).__name__
    if kind == "BasicType":
        return {"double": "float64", "float": "float32", "boolean": "bool", "octet": "byte"}.get(
            slot_type.typename, slot_type.typename)
    if kind in ("UnboundedString", "UnboundedWString"):
        return "string" if kind == "UnboundedString" else "wstring"
    if kind in ("BoundedString", "BoundedWString"):
        return f"{'string' if kind == 'BoundedString' else 'wstring'}<={slot_type.maximum_size}"
    if kind == "NamespacedType":
        return f"{slot_type.namespaces[0]}/{slot_type.name}"
    if kind == "Array":
        return f"{type_name(slot_type.value_type)}[{slot_type.size}]"
    if kind == "BoundedSequence":
        return f"{type_name(slot_type.value_type)}[<={slot_type.maximum_size}]"
    if kind == "UnboundedSequence":
        return f"{type_name(slot_type.value_type)}[]"
    return kind


def message_class(slot_type):
    """The Python class of a NamespacedType, e.g. geometry_msgs.msg.Pose."""
    module = importlib.import_module(".".join(slot_type.namespaces))
    return getattr(module, slot_type.name)


def fields_of(msg_class) -> list[tuple[str, Any]]:
    """[(field name, rosidl_parser type)] in declaration order."""
    names = list(msg_class.get_fields_and_field_types())
    return list(zip(names, msg_class.SLOT_TYPES))


def is_message(value: Any) -> bool:
    return hasattr(type(value), "SLOT_TYPES") and hasattr(type(value), "get_fields_and_field_types")


# ------------------------------------------------------------------- filling
def message_from_yaml(msg_class, text: str | None, path: str = "msg"):
    """Parse YAML `text` (a mapping; empty = all defaults) into a new `msg_class`."""
    try:
        data = yaml.safe_load(text) if text and text.strip() else {}
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f" at line {mark.line + 1}, column {mark.column + 1}" if mark else ""
        raise MessageFillError(path, f"invalid YAML{where}: {getattr(exc, 'problem', exc)}") from exc
    return fill_message(msg_class(), data, path)


def fill_message(msg, data: Any, path: str = "msg"):
    """Set the fields of message instance `msg` from mapping `data`; returns `msg`.

    `msg` may also be a message class, in which case a new instance is filled.
    """
    if isinstance(msg, type):
        msg = msg()
    if data is None:
        return msg
    if is_message(data):
        if type(data) is not type(msg):
            raise _mismatch(path, f"a mapping for {type(msg).__name__}", data)
        return data
    if not isinstance(data, dict):
        raise _mismatch(path, f"a mapping of {type(msg).__name__} fields", data)
    fields = dict(fields_of(type(msg)))
    for key, value in data.items():
        if key not in fields:
            raise MessageFillError(
                f"{path}.{key}" if isinstance(key, str) else path,
                f"unknown field {key!r} of {_full_name(type(msg))}; fields are: {', '.join(fields) or '(none)'}")
        field_path = f"{path}.{key}"
        setattr(msg, key, _convert(fields[key], value, field_path, getattr(msg, key)))
    return msg


def _full_name(msg_class) -> str:
    module = msg_class.__module__.split(".")
    return f"{module[0]}/{msg_class.__name__}"


def _convert(slot_type, value: Any, path: str, current: Any = None):
    kind = type(slot_type).__name__
    if kind == "BasicType":
        return _convert_basic(slot_type.typename, value, path)
    if kind in ("UnboundedString", "BoundedString", "UnboundedWString", "BoundedWString"):
        if not isinstance(value, str):
            hint = " (quote it)" if isinstance(value, (int, float, bool)) else ""
            raise _mismatch(path, "string" + hint, value)
        limit = getattr(slot_type, "maximum_size", None)
        if limit is not None and len(value) > limit:
            raise MessageFillError(path, f"expected string of at most {limit} characters, got {len(value)}")
        return value
    if kind == "NamespacedType":
        cls = message_class(slot_type)
        if (tuple(slot_type.namespaces) + (slot_type.name,)) in TIME_TYPES and _is_number(value):
            return _seconds_to_time(cls, value, path)
        target = current if current is not None and type(current) is cls else cls()
        return fill_message(target, value, path)
    if kind in ("Array", "BoundedSequence", "UnboundedSequence"):
        return _convert_sequence(slot_type, kind, value, path)
    raise MessageFillError(path, f"unsupported field type {kind}")


def _is_number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _convert_basic(typename: str, value: Any, path: str):
    if typename == "boolean":
        if not isinstance(value, bool):
            raise _mismatch(path, "bool (true/false)", value)
        return value
    if typename in FLOAT_MAX:
        if isinstance(value, str):
            try:
                number = float(value)
            except ValueError:
                raise _mismatch(path, "float", value) from None
        elif _is_number(value):
            number = float(value)
        else:
            raise _mismatch(path, "float", value)
        if math.isfinite(number) and abs(number) > FLOAT_MAX[typename]:
            raise MessageFillError(path, f"{number} is out of range for {type_name_basic(typename)}")
        return number
    if typename in INT_RANGES:
        if not isinstance(value, int) or isinstance(value, bool):
            raise _mismatch(path, f"integer ({typename})", value)
        low, high = INT_RANGES[typename]
        if not low <= value <= high:
            raise MessageFillError(path, f"{value} is out of range for {typename} [{low}, {high}]")
        return value
    if typename == "octet":
        if isinstance(value, (bytes, bytearray)) and len(value) == 1:
            return bytes(value)
        if isinstance(value, int) and not isinstance(value, bool) and 0 <= value <= 255:
            return bytes([value])
        raise _mismatch(path, "byte (integer 0..255)", value)
    if typename in ("char", "wchar"):
        if isinstance(value, str) and len(value) == 1 and (typename == "wchar" or ord(value) < 128):
            return value
        if isinstance(value, int) and not isinstance(value, bool) and 0 <= value < 128:
            return chr(value)
        raise _mismatch(path, "char (one ASCII character or 0..127)", value)
    raise MessageFillError(path, f"unsupported basic type {typename}")


def type_name_basic(typename: str) -> str:
    return {"double": "float64", "float": "float32"}.get(typename, typename)


def _seconds_to_time(cls, seconds: float, path: str):
    if not math.isfinite(seconds):
        raise _mismatch(path, "finite seconds or {sec, nanosec}", seconds)
    total_ns = round(seconds * 1e9)
    sec, nanosec = divmod(total_ns, 1_000_000_000)  # nanosec always in [0, 1e9)
    low, high = INT_RANGES["int32"]
    if not low <= sec <= high or (cls.__name__ == "Time" and sec < 0):
        raise MessageFillError(path, f"{seconds} s is out of range for {cls.__name__}")
    return cls(sec=sec, nanosec=nanosec)


def _convert_sequence(slot_type, kind: str, value: Any, path: str):
    item_type = slot_type.value_type
    item_kind = getattr(item_type, "typename", None)
    if isinstance(value, (bytes, bytearray)) and item_kind in ("uint8", "octet"):
        value = list(value)
    if not isinstance(value, (list, tuple)):
        raise _mismatch(path, f"a list ({type_name(slot_type)})", value)
    if kind == "Array" and len(value) != slot_type.size:
        raise MessageFillError(path, f"expected exactly {slot_type.size} items, got {len(value)}")
    if kind == "BoundedSequence" and len(value) > slot_type.maximum_size:
        raise MessageFillError(path, f"expected at most {slot_type.maximum_size} items, got {len(value)}")
    return [_convert(item_type, item, f"{path}[{i}]") for i, item in enumerate(value)]


# ------------------------------------------------------------------ to dicts
def message_to_dict(msg, max_items: int | None = None) -> dict:
    """A message as nested plain dicts/lists/numbers/strings (ready for yaml/json).

    `max_items` shortens long sequences (images, point clouds) for printing:
    the first `max_items` items are kept, followed by a "... (N more)" string.
    """
    out = {}
    for name, slot_type in fields_of(type(msg)):
        out[name] = _to_plain(getattr(msg, name), max_items)
    return out


def _to_plain(value: Any, max_items: int | None):
    if is_message(value):
        return message_to_dict(value, max_items)
    if hasattr(value, "tolist") and not isinstance(value, (bytes, str)):  # numpy arrays/scalars
        value = value.tolist()
    if isinstance(value, array.array):
        value = value.tolist()
    if isinstance(value, (bytes, bytearray)):
        return value[0] if len(value) == 1 else list(value)
    if isinstance(value, (list, tuple)):
        items = [_to_plain(v, max_items) for v in (value if max_items is None else value[:max_items])]
        if max_items is not None and len(value) > max_items:
            items.append(f"... ({len(value) - max_items} more)")
        return items
    return value


def message_to_yaml(msg, max_items: int | None = None) -> str:
    """A message as block-style YAML, fields in declaration order."""
    return yaml.safe_dump(message_to_dict(msg, max_items), sort_keys=False,
                          default_flow_style=False, allow_unicode=True)
