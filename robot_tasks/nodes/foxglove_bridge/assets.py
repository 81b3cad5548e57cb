"""Meshes for the Foxglove 3D panel: only the files a robot_description names.

A Foxglove client draws a robot from its URDF (the `<ns>/robot_description` topic) and
asks the server for every mesh the URDF names, by URI, through the WebSocket
protocol's fetchAsset request. The server answers with the file's bytes or an error.

Serving files is a way into the machine, so this handler serves *only* the mesh files
that a robot_description it has seen names, nothing else: `learn(urdf_xml)` adds them;
`__call__(uri)` (the SDK's asset handler) returns the bytes, or None for anything else.
A mesh may be named as an absolute path (what the sim publishes), a `file://` URI, or a
`package://pkg/path` URI (found under `<share>/pkg/path`, share from message_schemas).
"""
from __future__ import annotations

import threading
from pathlib import Path
from urllib.parse import unquote, urlparse

from defusedxml import ElementTree

from robot_tasks.ros.message_schemas import share_dirs

MAX_ASSET_BYTES = 64 * 1024 * 1024


def mesh_uris(urdf_xml: str) -> set[str]:
    """Every `<mesh filename=...>` of a URDF (an unparsable URDF names none)."""
    try:
        root = ElementTree.fromstring(urdf_xml)
    except ElementTree.ParseError:
        return set()
    return {m.get("filename") for m in root.iter("mesh") if m.get("filename")}


def resolve(uri: str) -> Path | None:
    """The local file of a mesh URI, or None if it names none."""
    parsed = urlparse(uri)
    if parsed.scheme in ("", "file"):
        path = Path(unquote(parsed.path))
        return path if path.is_absolute() and path.is_file() else None
    if parsed.scheme == "package":
        for share in share_dirs():
            path = share / parsed.netloc / unquote(parsed.path).lstrip("/")
            if path.is_file():
                return path
    return None


class AssetServer:
    """The SDK's asset handler: `handler(uri) -> bytes | None`, limited to known meshes."""

    def __init__(self):
        self._lock = threading.Lock()
        self._allowed: set[Path] = set()        # resolved files a URDF named

    def learn(self, urdf_xml: str) -> int:
        """Allow the meshes of this URDF; returns how many of them exist here."""
        found = {path.resolve() for uri in mesh_uris(urdf_xml) if (path := resolve(uri)) is not None}
        with self._lock:
            self._allowed |= found
        return len(found)

    def __call__(self, uri: str) -> bytes | None:
        """The file's bytes if a known URDF names it (under any of the URI spellings)."""
        path = resolve(uri)
        if path is None:
            return None
        path = path.resolve()
        with self._lock:
            allowed = path in self._allowed
        if not allowed or path.stat().st_size > MAX_ASSET_BYTES:
            return None
        return path.read_bytes()
