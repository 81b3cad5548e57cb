"""The `ros2msg` schema of a ROS 2 message type: its .msg text with every type it uses.

A Foxglove client decodes a `cdr` channel with the schema the server sends: for ROS 2
types that is the *concatenated message definition*, the form rosbag2's MCAP storage
and the ROS Foxglove bridge use too. The type's own .msg text comes first; then, for
every message type it refers to (recursively, each once), a separator line of 80 `=`,
a line `MSG: package/Name` and that type's .msg text:

    geometry_msgs/TransformStamped[] transforms
    ================================================================================
    MSG: geometry_msgs/TransformStamped
    std_msgs/Header header
    ...

The .msg files are the ones every interface package installs under
`<prefix>/share/<package>/msg/`, searched in AMENT_PREFIX_PATH and the Python prefix.
"""
from __future__ import annotations

import os
import re
import sys
from functools import lru_cache
from pathlib import Path

from robot_tasks.ros.errors import RosError

SEPARATOR = "=" * 80
PRIMITIVES = frozenset({"bool", "byte", "char", "float32", "float64", "int8", "uint8", "int16", "uint16",
                        "int32", "uint32", "int64", "uint64", "string", "wstring"})
_ARRAY_OR_BOUND = re.compile(r"(\[[^\]]*\]|<=\d+)+$")


class SchemaError(RosError):
    """A message definition that cannot be found or read."""


def split_type(type_name: str) -> tuple[str, str]:
    """'pkg/msg/Name' or 'pkg/Name' -> ('pkg', 'Name')."""
    parts = type_name.strip("/").split("/")
    if len(parts) == 3 and parts[1] == "msg":
        return parts[0], parts[2]
    if len(parts) == 2:
        return parts[0], parts[1]
    raise SchemaError(f"'{type_name}' is not a message type name (package/msg/Name)")


def share_dirs() -> list[Path]:
    prefixes = [p for p in os.environ.get("AMENT_PREFIX_PATH", "").split(os.pathsep) if p] + [sys.prefix]
    return [Path(p) / "share" for p in dict.fromkeys(prefixes)]


@lru_cache(maxsize=None)
def msg_text(package: str, name: str) -> str:
    """The installed .msg file of package/Name."""
    for share in share_dirs():
        path = share / package / "msg" / f"{name}.msg"
        if path.is_file():
            return path.read_text()
    raise SchemaError(f"no {package}/msg/{name}.msg under {[str(s) for s in share_dirs()]}")


def referenced_types(text: str, package: str) -> list[tuple[str, str]]:
    """The message types the fields of a .msg text use, in order (constants skipped)."""
    found = []
    for line in text.splitlines():
        line = line.split("#", 1)[0].strip()
        if not line:
            continue
        field_type, _, rest = line.partition(" ")
        if "=" in rest.split(" ", 1)[0] or "=" in field_type:
            continue                                                # a constant: NAME=value
        base = _ARRAY_OR_BOUND.sub("", field_type)
        if base in PRIMITIVES:
            continue
        if "/" in base:
            found.append(split_type(base))
        elif base == "Header":
            found.append(("std_msgs", "Header"))
        else:
            found.append((package, base))                           # same package, bare name
    return found


@lru_cache(maxsize=None)
def ros2msg_schema(type_name: str) -> str:
    """The concatenated definition of `type_name` (see the module docstring)."""
    package, name = split_type(type_name)
    root = msg_text(package, name)
    parts, seen = [root.rstrip("\n")], {(package, name)}
    todo = referenced_types(root, package)
    while todo:
        dependency = todo.pop(0)
        if dependency in seen:
            continue
        seen.add(dependency)
        text = msg_text(*dependency)
        parts.append(f"{SEPARATOR}\nMSG: {dependency[0]}/{dependency[1]}\n{text.rstrip(chr(10))}")
        todo.extend(referenced_types(text, dependency[0]))
    return "\n".join(parts) + "\n"
