"""Port declarations (`provided_ports()`) and string-to-value conversion.

A port has a direction, a name, an optional Python type (None means "any type",
BT.CPP's AnyTypeAllowed), an optional default and a description. `cpp_type` names the
C++ type BT.CPP gives the same port where the Python type cannot say it (`unsigned int`
for Sleep's `msec`, `std::string` for Switch's `variable`, whose values stay generic here):
the load-time connection rules (`port_types.py`) and TreeNodesModel use it. In XML a port is
either a literal (converted to the port type when the tree is created) or a
blackboard pointer `{key}`; `{=}` and `=` mean "the key named like the port".
"""
from __future__ import annotations

import typing
from enum import Enum
from typing import Any, Mapping

from .status import NodeStatus, status_from_string


class PortDirection(Enum):
    INPUT = "input_port"
    OUTPUT = "output_port"
    INOUT = "inout_port"


PRE_CONDITIONS = ("_failureIf", "_successIf", "_skipIf", "_while")
POST_CONDITIONS = ("_onSuccess", "_onFailure", "_onHalted", "_post")
RESERVED_ATTRIBUTES = frozenset(("name", "ID", "_autoremap") + PRE_CONDITIONS + POST_CONDITIONS)


class _NoDefault:
    """Marker for 'this port has no default' (None is a valid default value)."""

    def __repr__(self) -> str:
        return "NO_DEFAULT"


NO_DEFAULT: Any = _NoDefault()


class PortInfo:
    """One declared port. Build it with InputPort / OutputPort / BidirectionalPort."""

    __slots__ = ("direction", "name", "type", "default", "description", "cpp_type")

    def __init__(self, direction: PortDirection, name: str, type: type | None = None,
                 default: Any = NO_DEFAULT, description: str = "", cpp_type: str | None = None):
        if not isinstance(name, str) or not name or name in RESERVED_ATTRIBUTES:
            raise ValueError(f"invalid port name {name!r}: must be a non-empty string and not a "
                             f"reserved attribute ({', '.join(sorted(RESERVED_ATTRIBUTES))})")
        self.direction = direction
        self.name = name
        self.type = None if type is typing.Any else type  # BT::Any: generic, like None
        self.default = default
        self.description = description
        self.cpp_type = cpp_type

    @property
    def has_default(self) -> bool:
        return self.default is not NO_DEFAULT

    def default_as_string(self) -> str | None:
        """The default as XML text (what Groot2 shows), or None without default."""
        if self.default is NO_DEFAULT:
            return None
        return value_to_string(self.default)

    def __repr__(self) -> str:
        return (f"PortInfo({self.direction.name}, {self.name!r}, type={type_name(self.type)!r}, "
                f"default={self.default!r})")


def InputPort(name: str, type: type | None = None, default: Any = NO_DEFAULT,
              description: str = "", cpp_type: str | None = None) -> PortInfo:
    """Declare an input port, e.g. `InputPort("msec", int, default=1000)`."""
    return PortInfo(PortDirection.INPUT, name, type, default, description, cpp_type)


def OutputPort(name: str, type: type | None = None, default: Any = NO_DEFAULT,
               description: str = "", cpp_type: str | None = None) -> PortInfo:
    """Declare an output port; its XML value must be a blackboard pointer `{key}`."""
    return PortInfo(PortDirection.OUTPUT, name, type, default, description, cpp_type)


def BidirectionalPort(name: str, type: type | None = None, default: Any = NO_DEFAULT,
                      description: str = "", cpp_type: str | None = None) -> PortInfo:
    """Declare a port that is both read and written (BT.CPP `BidirectionalPort`)."""
    return PortInfo(PortDirection.INOUT, name, type, default, description, cpp_type)


def ports_dict(ports) -> dict[str, PortInfo]:
    """Normalise a `provided_ports()` result (list, tuple or dict) to {name: PortInfo}."""
    if ports is None:
        return {}
    if isinstance(ports, Mapping):
        ports = list(ports.values())
    result: dict[str, PortInfo] = {}
    for port in ports:
        if not isinstance(port, PortInfo):
            raise TypeError(f"provided_ports() must contain PortInfo objects, got {port!r}")
        if port.name in result:
            raise ValueError(f"port [{port.name}] declared twice")
        result[port.name] = port
    return result


def blackboard_key(text: str, port_name: str) -> str | None:
    """The blackboard key a port value points to, or None when the value is a literal.

    `{key}` -> 'key' (spaces trimmed); `{=}` and `=` -> the port name.
    """
    if text == "=" or text == "{=}":
        return port_name
    stripped = text.strip()
    if len(stripped) >= 3 and stripped[0] == "{" and stripped[-1] == "}":
        key = stripped[1:-1].strip()
        return port_name if key == "=" else key
    return None


_TRUE = {"true", "True", "TRUE", "1"}
_FALSE = {"false", "False", "FALSE", "0"}


def convert_from_string(text: str, port_type: type | None, enums: Mapping[str, int] | None = None) -> Any:
    """Convert XML/blackboard text to `port_type`; raise ValueError with a clear reason.

    None and `str` keep the text. ints accept registered scripting-enum names.
    Custom classes may provide a `from_string(text)` classmethod. `list[float]` (any
    `list[T]`/`tuple[T, ...]`) splits on ';' and converts each part, like BT.CPP's
    `std::vector<T>`; a plain `list` keeps the parts as strings.
    """
    if port_type is None or port_type is str:
        return text
    if port_type is int:
        stripped = text.strip()
        if enums and stripped in enums:
            return int(enums[stripped])
        try:
            return int(stripped, 10)
        except ValueError:
            raise ValueError(f"can't convert '{text}' to int") from None
    if port_type is float:
        stripped = text.strip()
        if enums and stripped in enums:
            return float(enums[stripped])
        try:
            return float(stripped)
        except ValueError:
            raise ValueError(f"can't convert '{text}' to double") from None
    if port_type is bool:
        stripped = text.strip()
        if stripped in _TRUE:
            return True
        if stripped in _FALSE:
            return False
        raise ValueError(f"can't convert '{text}' to bool")
    if port_type is NodeStatus:
        return status_from_string(text)
    from_string = getattr(port_type, "from_string", None)
    if from_string is not None:
        return from_string(text)
    if isinstance(port_type, type) and issubclass(port_type, Enum):
        stripped = text.strip()
        if stripped in port_type.__members__:
            return port_type[stripped]
        try:
            return port_type(int(stripped))
        except ValueError:
            raise ValueError(f"can't convert '{text}' to {port_type.__name__}") from None
    if port_type in (list, tuple):
        return port_type(part for part in text.split(";"))
    origin = typing.get_origin(port_type)
    if origin in (list, tuple):
        item_type = typing.get_args(port_type)[0]
        return origin(convert_from_string(part, item_type, enums) for part in text.split(";"))
    try:
        return port_type(text)
    except Exception as exc:  # a user type's constructor can raise anything
        raise ValueError(f"can't convert '{text}' to {type_name(port_type)}: {exc}") from None


def convert_value(value: Any, port_type: type | None, enums: Mapping[str, int] | None = None) -> Any:
    """Convert a value read from the blackboard to `port_type` (strings are parsed,
    numbers cast when it loses nothing); raise ValueError when impossible."""
    if port_type is None or value.__class__ is port_type:
        return value
    if isinstance(value, str):
        return convert_from_string(value, port_type, enums)
    if port_type is float and isinstance(value, (int, bool)):
        return float(value)
    if port_type is int and isinstance(value, (float, bool)):
        if isinstance(value, float) and not value.is_integer():
            raise ValueError(f"can't convert {value!r} to int without losing precision")
        return int(value)
    if port_type is bool and isinstance(value, (int, float)):
        return bool(value)
    if port_type is str:
        return value_to_string(value)
    if isinstance(port_type, type) and isinstance(value, port_type):
        return value
    origin = typing.get_origin(port_type)
    if origin is not None and isinstance(value, origin):
        return value  # list[float] and a list: taken as it is
    raise ValueError(f"can't convert {value!r} ({type(value).__name__}) to {type_name(port_type)}")


def value_to_string(value: Any) -> str:
    """Text form of a value, as BT.CPP's toStr would print it."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, NodeStatus):
        return value.name
    if isinstance(value, Enum):
        return value.name
    if isinstance(value, (list, tuple)):
        return ";".join(value_to_string(v) for v in value)
    return str(value)


_TYPE_NAMES = {str: "std::string", int: "int", float: "double", bool: "bool",
               NodeStatus: "BT::NodeStatus", list: "std::vector<std::string>"}


def type_name(port_type: type | None) -> str:
    """The type name written to TreeNodesModel (BT.CPP's demangled names for builtins)."""
    if port_type is None:
        return "AnyTypeAllowed"
    return _TYPE_NAMES.get(port_type, getattr(port_type, "__name__", str(port_type)))
