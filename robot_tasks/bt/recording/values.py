"""Blackboard values as JSON that a person can read and a replay can turn back into the same value.

A recording keeps every value a leaf wrote, and a replay must write the *same* value
back (same type, same contents), so that the rest of the tree reads what it read in
the run. Plain JSON loses too much for that (a tuple becomes a list, a bool in BT.CPP's
export becomes 1, a dataclass or a numpy array becomes null), so `encode` keeps JSON's
own types as they are and tags everything else with `"__type"`, the field
`robot_tasks.bt.blackboard_json` already uses for its registered types:

| value                                   | encoded as                                          |
|-----------------------------------------|-----------------------------------------------------|
| None, bool, int, str, finite float      | itself                                              |
| list                                    | an array of encoded items                           |
| dict with str keys (none is "__type")   | an object of encoded values                         |
| nan / inf / -inf                        | `{"__type": "float", "value": "nan"}`               |
| tuple, set, frozenset                   | `{"__type": "tuple", "items": [...]}` (sets sorted by their encoding) |
| any other dict                          | `{"__type": "dict", "items": [[key, value], ...]}`  |
| bytes, bytearray                        | `{"__type": "bytes", "base64": "..."}`              |
| complex                                 | `{"__type": "complex", "real": 1.0, "imag": 2.0}`   |
| a type registered with `blackboard_json.register_json_type` | its converter's object, plus `"__type": name` (as the blackboard export writes it) |
| an Enum member                          | `{"__type": "enum", "class": "pkg.mod:Color", "name": "RED"}` |
| a numpy array / scalar                  | `{"__type": "ndarray", "dtype": "float64", "shape": [3], "data": [...]}` / `{"__type": "numpy", ...}` |
| a ROS message                           | `{"__type": "ros_message", "class": "sensor_msgs/msg/JointState", "fields": {...}}` |
| array.array (a ROS sequence field)      | `{"__type": "array", "typecode": "d", "items": [...]}` |
| an instance of a Python class (a dataclass, a namedtuple, a plain object) | `{"__type": "object", "class": "pkg.mod:Name", "state": {...}}`: its `__dict__`/slots (a namedtuple: its fields), rebuilt without calling `__init__`, as pickle does |
| anything else (C types such as datetime) | `{"__type": "pickle", "repr": "...", "base64": "..."}` |

`decode` reverses it. A class that cannot be imported where the replay runs (a ROS
message without ROS installed) decodes to an `Opaque` value that remembers its JSON:
it re-encodes to exactly what was recorded, so the replay's checks still hold; only a
script that reads into it would notice. Decoding a `pickle` value runs pickle: replay
only recordings you trust, as with any pickle.
"""
from __future__ import annotations

import array
import base64
import enum
import importlib
import math
import pickle
from typing import Any

from ..blackboard import EMPTY
from ..blackboard_json import _TYPES_BY_CLASS, _TYPES_BY_NAME, TYPE_FIELD

_SCALARS = frozenset({str, int, bool, type(None)})
_NUMBER_ITEMS = frozenset({float, int, bool})   # a list of only these (finite) is its own JSON
_TEXT_ITEMS = frozenset({str, type(None)})        # and so is one of only these


class Opaque:
    """A recorded value whose class is not available here; `encoded` is its JSON form."""

    __slots__ = ("encoded",)

    def __init__(self, encoded: dict):
        self.encoded = encoded

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Opaque) and other.encoded == self.encoded

    def __hash__(self) -> int:
        return hash(repr(self.encoded))

    def __repr__(self) -> str:
        return f"Opaque({self.encoded.get('class') or self.encoded.get(TYPE_FIELD)})"


# ---- encoding ----------------------------------------------------------------------------
def encode(value: Any) -> Any:
    """The JSON-able form of one blackboard value (see the module docstring)."""
    kind = type(value)
    if kind in _SCALARS:
        return value
    if kind is float:
        return value if math.isfinite(value) else {TYPE_FIELD: "float", "value": repr(value)}
    if kind is list:
        kinds = set(map(type, value))
        if kinds <= _TEXT_ITEMS or (kinds <= _NUMBER_ITEMS and (float not in kinds
                                                                  or all(map(math.isfinite, value)))):
            return list(value)  # only numbers, or only strings (the common case): no per-item calls
        return [encode(item) for item in value]
    if kind is dict:
        if TYPE_FIELD not in value and all(type(key) is str for key in value):
            # scalars inline (a finite float is the one with x - x == 0): messages as dicts are mostly scalars
            return {key: item if type(item) in _SCALARS or (type(item) is float and item - item == 0)
                    else encode(item) for key, item in value.items()}
        return {TYPE_FIELD: "dict", "items": [[encode(k), encode(v)] for k, v in value.items()]}
    if kind is tuple:
        return {TYPE_FIELD: "tuple", "items": [encode(item) for item in value]}
    return _encode_other(value, kind)


def _encode_other(value: Any, kind: type) -> Any:
    if value is EMPTY:
        return {TYPE_FIELD: "empty"}
    if isinstance(value, Opaque):
        return value.encoded
    json_type = _TYPES_BY_CLASS.get(kind)
    if json_type is not None:
        return {**json_type.to_json(value), TYPE_FIELD: json_type.name}
    if isinstance(value, enum.Enum):
        return {TYPE_FIELD: "enum", "class": class_name(kind), "name": value.name}
    if kind in (set, frozenset):
        items = sorted((encode(item) for item in value), key=repr)
        return {TYPE_FIELD: kind.__name__, "items": items}
    if kind in (bytes, bytearray):
        return {TYPE_FIELD: kind.__name__, "base64": base64.b64encode(value).decode("ascii")}
    if kind is complex:
        return {TYPE_FIELD: "complex", "real": encode(value.real), "imag": encode(value.imag)}
    if kind is array.array:
        return {TYPE_FIELD: "array", "typecode": value.typecode, "items": [encode(v) for v in value.tolist()]}
    if kind.__module__ == "numpy":
        encoded = _encode_numpy(value, kind)
        if encoded is not None:
            return encoded
    if hasattr(kind, "get_fields_and_field_types") and hasattr(kind, "__slots__"):
        return _encode_ros_message(value, kind)
    if _plain_class(value, kind):
        return {TYPE_FIELD: "object", "class": class_name(kind), "state": _object_state(value, kind)}
    return _encode_pickle(value)


def _encode_numpy(value: Any, kind: type) -> dict | None:
    dtype = getattr(value, "dtype", None)
    if dtype is None or dtype.kind not in "biufc":
        return None
    if kind.__name__ == "ndarray":
        return {TYPE_FIELD: "ndarray", "dtype": str(dtype), "shape": list(value.shape),
                "data": [encode(v) for v in value.ravel().tolist()]}
    return {TYPE_FIELD: "numpy", "dtype": str(dtype), "value": encode(value.item())}


def _encode_ros_message(value: Any, kind: type) -> dict:
    module = kind.__module__.split(".")
    fields = {name: encode(getattr(value, name)) for name in kind.get_fields_and_field_types()}
    return {TYPE_FIELD: "ros_message", "class": f"{module[0]}/{module[1]}/{kind.__name__}", "fields": fields}


def _plain_class(value: Any, kind: type) -> bool:
    """True for instances of ordinary Python classes that pickle would rebuild from their state."""
    if "<locals>" in kind.__qualname__ or kind.__module__ == "builtins":
        return False
    if _is_namedtuple(kind):
        return True
    if (getattr(kind, "__reduce_ex__", None) is not object.__reduce_ex__
            or getattr(kind, "__reduce__", None) is not object.__reduce__ or hasattr(kind, "__setstate__")):
        return False  # the class says how it is pickled: let pickle do it
    return hasattr(value, "__dict__") or bool(_slot_names(kind))


def _is_namedtuple(kind: type) -> bool:
    return issubclass(kind, tuple) and hasattr(kind, "_fields")


def _slot_names(kind: type) -> list[str]:
    names = []
    for cls in kind.__mro__:
        slots = cls.__dict__.get("__slots__", ())
        names.extend([slots] if isinstance(slots, str) else slots)
    return [n for n in names if n not in ("__dict__", "__weakref__")]


def _object_state(value: Any, kind: type) -> dict:
    if _is_namedtuple(kind):
        return {name: encode(getattr(value, name)) for name in kind._fields}
    state = {}
    for name in _slot_names(kind):
        if hasattr(value, name):
            state[name] = encode(getattr(value, name))
    for name, item in getattr(value, "__dict__", {}).items():
        state[name] = encode(item)
    return state


def _encode_pickle(value: Any) -> dict:
    shown = repr(value)
    shown = shown if len(shown) <= 200 else shown[:197] + "..."
    try:
        data = base64.b64encode(pickle.dumps(value, protocol=4)).decode("ascii")
    except Exception as exc:  # noqa: BLE001 - not picklable either: keep what can be said
        return {TYPE_FIELD: "unencodable", "class": class_name(type(value)), "repr": shown,
                "reason": f"{type(exc).__name__}: {exc}"}
    return {TYPE_FIELD: "pickle", "repr": shown, "base64": data}


def class_name(kind: type) -> str:
    return f"{kind.__module__}:{kind.__qualname__}"


# ---- decoding ----------------------------------------------------------------------------
def decode(data: Any) -> Any:
    """The value `encode` made `data` from (an `Opaque` when its class is missing here)."""
    kind = type(data)
    if kind is list:
        return [decode(item) for item in data]
    if kind is dict:
        tag = data.get(TYPE_FIELD)
        if tag is None:
            return {key: decode(item) for key, item in data.items()}
        return _decode_tagged(tag, data)
    return data


def _decode_tagged(tag: Any, data: dict) -> Any:
    decoder = _DECODERS.get(tag)
    if decoder is not None:
        try:
            return decoder(data)
        except (ImportError, AttributeError, TypeError, ValueError, KeyError, pickle.UnpicklingError):
            return Opaque(data)
    json_type = _TYPES_BY_NAME.get(tag) if isinstance(tag, str) else None
    if json_type is None:
        return Opaque(data)
    return json_type.from_json({key: item for key, item in data.items() if key != TYPE_FIELD})


def _import_class(name: str) -> type:
    module, _, qualname = name.partition(":")
    obj: Any = importlib.import_module(module)
    for part in qualname.split("."):
        obj = getattr(obj, part)
    return obj


def _decode_object(data: dict) -> Any:
    kind = _import_class(data["class"])
    state = {key: decode(item) for key, item in data["state"].items()}
    if _is_namedtuple(kind):
        return kind(**state)
    obj = kind.__new__(kind)
    slots = set(_slot_names(kind))
    for name, item in state.items():
        if name in slots or not hasattr(obj, "__dict__"):
            object.__setattr__(obj, name, item)
        else:
            obj.__dict__[name] = item
    return obj


def _decode_ros_message(data: dict) -> Any:
    package, middle, name = data["class"].split("/")
    kind = getattr(importlib.import_module(f"{package}.{middle}"), name)
    message = kind()
    for field, item in data["fields"].items():
        setattr(message, field, decode(item))
    return message


def _decode_numpy(data: dict) -> Any:
    import numpy

    if data[TYPE_FIELD] == "ndarray":
        return numpy.array(decode(data["data"]), dtype=data["dtype"]).reshape(data["shape"])
    return numpy.dtype(data["dtype"]).type(decode(data["value"]))


_DECODERS = {
    "empty": lambda d: EMPTY,
    "float": lambda d: float(d["value"]),
    "tuple": lambda d: tuple(decode(i) for i in d["items"]),
    "set": lambda d: {decode(i) for i in d["items"]},
    "frozenset": lambda d: frozenset(decode(i) for i in d["items"]),
    "dict": lambda d: {decode(k): decode(v) for k, v in d["items"]},
    "bytes": lambda d: base64.b64decode(d["base64"]),
    "bytearray": lambda d: bytearray(base64.b64decode(d["base64"])),
    "complex": lambda d: complex(decode(d["real"]), decode(d["imag"])),
    "array": lambda d: array.array(d["typecode"], decode(d["items"])),
    "enum": lambda d: getattr(_import_class(d["class"]), d["name"]),
    "ndarray": _decode_numpy,
    "numpy": _decode_numpy,
    "ros_message": _decode_ros_message,
    "object": _decode_object,
    "pickle": lambda d: pickle.loads(base64.b64decode(d["base64"])),
}
