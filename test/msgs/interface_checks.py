"""What test/msgs checks of a package built from upstream's field lists (control_msgs, ...).

A ROS 2 tool or driver matches a topic, service or action by its type name and, since Iron,
by the type description hash (RIHS01) that rosidl computes from type names and fields. Each
test module holds GOLDEN: per type, the hash of *upstream's* definition (computed once by
rosbags from upstream's files, never from ours or from our build), the Python field lists and
the constants. Equal hashes mean a real driver and our servers understand each other.
"""
from __future__ import annotations

import importlib
import json
import sys
from dataclasses import dataclass, field
from pathlib import Path

from rihs01 import Rihs01

REPO = Path(__file__).resolve().parents[2]
PARTS = {"msg": ("",), "srv": ("Request", "Response"), "action": ("Goal", "Result", "Feedback")}


@dataclass(frozen=True)
class Golden:
    """Upstream's type: hash, {part: get_fields_and_field_types()}, {part: constants}.

    A part is "" for a message, Request/Response for a service, Goal/Result/Feedback for an
    action."""
    hash: str
    fields: dict[str, dict[str, str]]
    constants: dict[str, dict[str, int | float | str]] = field(default_factory=dict)


def installed_description(full_name: str) -> dict:
    """rosidl's type description of `pkg/kind/Name`, as installed: <venv>/share/pkg/kind/Name.json."""
    package, kind, name = full_name.split("/")
    path = Path(sys.prefix) / "share" / package / kind / f"{name}.json"
    assert path.is_file(), f"{path} missing: build {package} (make setup)"
    return json.loads(path.read_text())


def installed_hashes(full_name: str) -> dict[str, str]:
    """{type name: RIHS01} of a type and of every type it refers to, as rosidl computed them."""
    return {h["type_name"]: h["hash_string"] for h in installed_description(full_name)["type_hashes"]}


def python_parts(full_name: str) -> dict[str, type]:
    package, kind, name = full_name.split("/")
    cls = getattr(importlib.import_module(f"{package}.{kind}"), name)
    return {part: getattr(cls, part) if part else cls for part in PARTS[kind]}


def constants_of(cls: type) -> dict:
    """The constants of a generated message class (upper-case class attributes, not the
    `SLOT_TYPES` table nor the `<FIELD>__DEFAULT` values)."""
    return {k: getattr(cls, k) for k in dir(cls)
            if k.isupper() and k != "SLOT_TYPES" and not k.endswith("__DEFAULT")}


def check_type(full_name: str, golden: Golden) -> None:
    """Our installed type is upstream's: name, hash, fields and constants."""
    description = installed_description(full_name)
    assert description["type_description_msg"]["type_description"]["type_name"] == full_name
    assert installed_hashes(full_name)[full_name] == golden.hash
    parts = python_parts(full_name)
    assert {part: cls.get_fields_and_field_types() for part, cls in parts.items()} == golden.fields
    constants = {part: constants_of(cls) for part, cls in parts.items()}
    assert constants == {part: golden.constants.get(part, {}) for part in parts}


def interface_files(package: str) -> dict[str, Path]:
    """{full type name: file} of the interface files in the repo's <package>/ folder."""
    folder = REPO / package
    return {f"{package}/{kind}/{p.stem}": p for kind in PARTS for p in sorted((folder / kind).glob(f"*.{kind}"))}


def check_rosbags_agrees_with_rosidl(package: str) -> int:
    """rosbags, given our own interface files, computes every hash rosidl installed for the
    package (each type and its generated parts: _Goal, _SendGoal_Request, _Event ...).
    Returns how many hashes were compared."""
    rosbags = Rihs01()
    files = interface_files(package)
    for full_name, path in files.items():
        rosbags.add(full_name, path.read_text())
    compared = 0
    for full_name in files:
        for type_name, rosidl_hash in installed_hashes(full_name).items():
            if type_name.startswith(f"{package}/"):
                assert rosbags.hash(type_name) == rosidl_hash, type_name
                compared += 1
    return compared
