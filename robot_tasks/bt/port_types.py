"""Which ports may share a blackboard entry: BT.CPP 4.10's port connection rules.

When a tree is created, every `{key}` port either creates the entry, typed like the
port, or meets an entry some earlier port (or a SubTree literal) already typed. BT.CPP
4.10 (`xml_parsing.cpp`, `docs/PORT_CONNECTION_RULES.md`) then refuses the tree unless

1. the two types are the same;
2. either side is generic (AnyTypeAllowed, BT::Any; here also a port typed None,
   `typing.Any` or `object`);
3. the entry was typed `std::string` first: text converts to anything later
   ("string is a universal donor"; the other way round, a typed entry read by a
   string port, is refused);
4. the port is an *input* and a polymorphic cast connects the entry's type to it: an
   upcast along any chain of base classes (Sphynx -> Cat -> Animal), or a downcast to a
   *direct* subclass (Animal -> Cat, checked again when the value is read). BT.CPP needs
   `registerPolymorphicCast<Derived, Base>()`; Python's class hierarchy is that registry
   here, so `class Cat(Animal)` is registered by being written. Outputs and inouts get
   no polymorphic leeway, and neither do value types (`bool` is an `int` in Python but
   not in C++).

Only the first port types an entry; later compatible ports leave it as it is, so the
order of the nodes in the file matters exactly as in BT.CPP.

A *type key* is what two ports are compared by: None (generic), a C++ type name
(`"int"`, `"double"`, `"std::string"`, `"unsigned int"`, ... for the Python builtins, a
port's `cpp_type`, or a TreeNodesModel's type attribute), or a Python class.
"""
from __future__ import annotations

import enum
import typing
from typing import Any, Union

from .ports import PortDirection, PortInfo
from .status import NodeStatus

TypeKey = Union[None, str, type]

_GENERIC_TYPES = (None, typing.Any, object)
_GENERIC_NAMES = frozenset(("", "AnyTypeAllowed", "BT::AnyTypeAllowed", "BT::Any", "Any"))
_BUILTIN_NAMES = {int: "int", float: "double", bool: "bool", str: "std::string",
                  NodeStatus: "BT::NodeStatus"}
_NAME_ALIASES = {"string": "std::string", "str": "std::string", "NodeStatus": "BT::NodeStatus",
                 "std::basic_string<char, std::char_traits<char>, std::allocator<char> >": "std::string",
                 "unsigned": "unsigned int"}
# Python classes that stand for C++ value types, which have no polymorphic casts.
_VALUE_TYPES = (int, float, bool, str, bytes, list, tuple, dict, set, frozenset, enum.Enum)
STRING = "std::string"


def name_key(name: str | None) -> TypeKey:
    """The key of a C++ type name (a `cpp_type`, a TreeNodesModel `type=`)."""
    name = (name or "").strip()
    if name in _GENERIC_NAMES:
        return None
    return _NAME_ALIASES.get(name, name)


def class_key(port_type: Any) -> TypeKey:
    """The key of a Python port type."""
    if any(port_type is generic for generic in _GENERIC_TYPES):
        return None
    return _BUILTIN_NAMES.get(port_type, port_type)


def port_key(port: PortInfo) -> TypeKey:
    """The key a port declares: its `cpp_type` when it has one, else its Python type."""
    if port.cpp_type is not None:
        return name_key(port.cpp_type)
    return class_key(port.type)


def literal_key(value: Any) -> TypeKey:
    """The key BT.CPP 4.10 gives a SubTree literal it stores typed (`int`, `long` for
    int64, `double`); a string literal makes a generic entry (Blackboard::set<string>)."""
    if value.__class__ is int:
        return "int" if -2 ** 31 <= value < 2 ** 31 else "long"
    if value.__class__ is float:
        return "double"
    return None


def key_name(key: TypeKey) -> str:
    """How a key reads in an error message."""
    if key is None:
        return "AnyTypeAllowed"
    if isinstance(key, str):
        return key
    if typing.get_origin(key) is not None:
        return str(key)  # list[float]
    return getattr(key, "__qualname__", str(key))


def same_type(a: TypeKey, b: TypeKey) -> bool:
    """Equal keys; a class equals a C++ name that spells it (a TreeNodesModel naming a
    Python node's type)."""
    if a == b:
        return True
    if isinstance(a, str) and isinstance(b, type):
        a, b = b, a
    if isinstance(a, type) and isinstance(b, str):
        return b in (a.__name__, a.__qualname__)
    return False


def polymorphic_cast(entry: TypeKey, port: TypeKey) -> bool:
    """BT.CPP's `PolymorphicCastRegistry::isConvertible(entry, port)` with Python's class
    hierarchy as the registry: upcast (transitively) or downcast to a direct subclass."""
    if not (isinstance(entry, type) and isinstance(port, type)):
        return False
    if issubclass(entry, _VALUE_TYPES) or issubclass(port, _VALUE_TYPES):
        return False
    return issubclass(entry, port) or entry in port.__bases__


def connection_allowed(entry: TypeKey, port: TypeKey, direction: PortDirection) -> bool:
    """May a port of type `port` (and `direction`) use an entry first typed `entry`?"""
    if entry is None or port is None or same_type(entry, port):
        return True
    if direction is PortDirection.INPUT and polymorphic_cast(entry, port):
        return True
    return entry == STRING
