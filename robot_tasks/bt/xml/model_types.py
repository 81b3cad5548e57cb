"""Type names found in TreeNodesModel port declarations, mapped to Python types."""
from __future__ import annotations

from ..status import NodeStatus

_TYPES = {
    "std::string": str, "string": str, "str": str, "std::basic_string<char, std::char_traits<char>, "
                                                   "std::allocator<char> >": str,
    "int": int, "unsigned": int, "unsigned int": int, "long": int, "unsigned long": int, "short": int,
    "int8_t": int, "int16_t": int, "int32_t": int, "int64_t": int, "uint8_t": int, "uint16_t": int,
    "uint32_t": int, "uint64_t": int, "size_t": int, "long long": int,
    "double": float, "float": float,
    "bool": bool,
    "BT::NodeStatus": NodeStatus, "NodeStatus": NodeStatus,
}


def type_from_name(name: str | None):
    """Python type for a model's `type` attribute; None (any type) when unknown."""
    if not name:
        return None
    return _TYPES.get(name.strip())
