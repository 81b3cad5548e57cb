"""The first line of a recording: which tree ran, from which files, starting from what.

    {"format": "robot_tasks.bt.recording", "version": 1,
     "tree_id": "FrankaStacking", "target": "FrankaStacking",
     "tree_file": "/.../trees/franka_stacking.xml",
     "files": {"/.../trees/franka_stacking.xml": "<sha256>"},   every file the tree was read from
     "subtree_files": {},                    tree IDs defined in other files than tree_file
     "payload": {"...": "..."},              the goal's payload (encoded values)
     "blackboard": {"cube": "...", ...},     every entry with a value before the first tick
     "plugins": ["robot_tasks.tasks"],       where the leaves came from (the executor's plugins)
     "scripting_enums": {"RED": 1},
     "leaf_types": {"MoveToPose": {"kind": "Action", "ports": [...]}},
     "leaves": {"FrankaStacking/.../home": {"type": "MoveToPose", "ports": {"pose": "0.4;0;1.05;1;0;0;0"}}},
     "nodes": 412, "recorded_at": "2026-12-04T23:44:06Z", "clock": "..."}

`leaf_types` keeps every leaf type's declared ports (name, direction, type, default):
the replay declares the same ports with the same types, so the tree loads with the
same blackboard typing, without importing the leaves' code (or ROS). `leaves` keeps
what each leaf was given (its type and port texts): a leaf of an edited tree that is
given something else (`threshold="0.08"`, `{cube2}`) cannot repeat what was recorded,
and the replay says so at its first tick.
"""
from __future__ import annotations

import hashlib
import time
import typing
from pathlib import Path
from typing import Any

from ..errors import BehaviorTreeError
from ..ports import NO_DEFAULT, PortInfo
from ..tree import Tree
from ..xml.document import parse_xml
from .paths import is_leaf, node_paths
from .values import class_name, encode

FORMAT = "robot_tasks.bt.recording"
VERSION = 1
_BUILTIN_TYPES = {"int": int, "float": float, "str": str, "bool": bool, "list": list, "dict": dict}


def file_sha256(path: str | Path) -> str:
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()


def tree_source_files(main_file: str | Path) -> list[Path]:
    """`main_file` and every file it includes (`<include path=...>`), recursively."""
    found: list[Path] = []
    pending = [Path(main_file).resolve()]
    while pending:
        path = pending.pop()
        if path in found:
            continue
        found.append(path)
        try:
            root = parse_xml(path.read_bytes(), str(path))
        except (OSError, BehaviorTreeError):
            continue
        for child in root.children:
            if child.tag == "include" and child.get("path"):
                pending.append((path.parent / child.get("path")).resolve())
    return found


def make_header(tree: Tree, blackboard: dict[str, Any], *, target: str = "", tree_file: str | Path | None = None,
                subtree_files: dict[str, str] | None = None, payload: dict | None = None,
                plugins: list[str] | tuple = (), clock: str = "") -> dict:
    """The header of a recording of `tree` (see the module docstring); `blackboard` is
    {entry name: value} before the first tick."""
    files: dict[str, str] = {}
    sources = [tree_file] if tree_file else []
    sources += list((subtree_files or {}).values())
    for source in sources:
        for path in tree_source_files(source):
            if str(path) not in files and path.is_file():
                files[str(path)] = file_sha256(path)
    enums = next((dict(node.config.enums) for node in tree.nodes), {})
    return {
        "format": FORMAT, "version": VERSION,
        "tree_id": tree.subtrees[0].tree_id if tree.subtrees else "",
        "target": target,
        "tree_file": str(Path(tree_file).resolve()) if tree_file else "",
        "files": files,
        "subtree_files": dict(subtree_files or {}),
        "payload": {key: encode(value) for key, value in (payload or {}).items()},
        "blackboard": {name: encode(value) for name, value in blackboard.items()},
        "plugins": list(plugins),
        "scripting_enums": enums,
        "leaf_types": leaf_types(tree),
        "leaves": leaf_ports(tree),
        "nodes": len(tree.nodes),
        "recorded_at": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
        "clock": clock,
    }


def leaf_ports(tree: Tree) -> dict[str, dict]:
    """path -> {"type": registration ID, "ports": {port: its XML text or default}} of every
    leaf: a replay checks that a leaf it replays is still the same leaf, given the same ports."""
    paths = node_paths(tree)
    return {paths[node.uid]: {"type": node.registration_id, "ports": port_texts(node)}
            for node in tree.nodes if node.uid in paths and is_leaf(node)}


def port_texts(node) -> dict[str, Any]:
    ports = {**node.config.input_ports, **node.config.output_ports}
    return {name: text if isinstance(text, str) else encode(text) for name, text in sorted(ports.items())}


def leaf_types(tree: Tree) -> dict[str, dict]:
    """registration ID -> {"kind", "ports"} of every leaf type the tree uses."""
    types: dict[str, dict] = {}
    for node in tree.nodes:
        manifest = node.config.manifest
        if manifest is None or manifest.registration_id in types or not is_leaf(node):
            continue
        types[manifest.registration_id] = {"kind": manifest.type.value,
                                           "ports": [port_to_json(p) for p in manifest.ports.values()]}
    return types


def port_to_json(port: PortInfo) -> dict:
    data: dict = {"name": port.name, "direction": port.direction.name.lower(), "type": type_to_json(port.type)}
    if port.cpp_type:
        data["cpp_type"] = port.cpp_type
    if port.default is not NO_DEFAULT:
        data["default"] = encode(port.default)
    return data


def type_to_json(port_type: Any) -> str | None:
    """None (any type), a builtin's name, 'list[float]', or 'module:QualName'."""
    if port_type is None or port_type is typing.Any:
        return None
    if typing.get_origin(port_type) is not None:
        return repr(port_type).replace("typing.", "")
    if isinstance(port_type, type):
        return port_type.__name__ if port_type.__module__ == "builtins" else class_name(port_type)
    return repr(port_type)


def type_from_json(text: str | None) -> Any:
    """The Python type `type_to_json` wrote; ValueError when it cannot be rebuilt here."""
    if text is None:
        return None
    if text in _BUILTIN_TYPES:
        return _BUILTIN_TYPES[text]
    if text.endswith("]") and "[" in text:
        outer, _, inner = text[:-1].partition("[")
        if outer in ("list", "tuple", "set") and "," not in inner:
            return _BUILTIN_TYPES.get(outer, {"tuple": tuple, "set": set}.get(outer))[type_from_json(inner)]
        raise ValueError(f"port type {text!r} cannot be rebuilt")
    if ":" in text:
        from .values import _import_class

        try:
            return _import_class(text)
        except (ImportError, AttributeError) as exc:
            raise ValueError(f"port type {text!r} cannot be imported here: {exc}") from None
    raise ValueError(f"port type {text!r} cannot be rebuilt")
