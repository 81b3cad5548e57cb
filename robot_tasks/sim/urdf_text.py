"""Make `robot_description` strings: the URDF text with every mesh path made absolute.

Consumers (Pinocchio in the arm server, rviz) then load the text with no package
directories configured.  `package://pkg/rest` is resolved against the URDF's own folder
first (pybullet_data's Panda writes `package://meshes/...`) and then against the given
share roots (example-robot-data writes `package://example-robot-data/robots/...`).
"""
from __future__ import annotations

import re
from pathlib import Path

from robot_tasks.sim.errors import SimError

_MESH_ATTR = re.compile(r'filename="([^"]+)"')


def absolutize_mesh_paths(urdf_text: str, urdf_dir: Path, share_roots: list[Path] = ()) -> str:
    """Return `urdf_text` with each mesh `filename` replaced by an absolute path.

    Only attributes inside <mesh .../> elements are touched (a gazebo plugin also has a
    `filename` attribute, and it must stay as it is).  Raises SimError naming the first
    mesh that exists nowhere.
    """

    def resolve(match: re.Match) -> str:
        start = urdf_text.rfind("<", 0, match.start())
        if not urdf_text.startswith("<mesh", start):
            return match.group(0)
        return f'filename="{_resolve_one(match.group(1), urdf_dir, share_roots)}"'

    return _MESH_ATTR.sub(resolve, urdf_text)


def _resolve_one(uri: str, urdf_dir: Path, share_roots) -> Path:
    if uri.startswith("file://"):
        uri = uri[len("file://"):]
    if uri.startswith("package://"):
        rest = uri[len("package://"):]
        candidates = [urdf_dir / rest] + [Path(root) / rest for root in share_roots]
    else:
        candidates = [Path(uri) if Path(uri).is_absolute() else urdf_dir / uri]
    for candidate in candidates:
        if candidate.is_file():
            return candidate.resolve()
    raise SimError(f"mesh '{uri}' not found (looked in {', '.join(str(c) for c in candidates)})")


def append_fixed_link(urdf_text: str, parent: str, link_xml: str, joint_name: str, child: str,
                      xyz=(0.0, 0.0, 0.0), rpy=(0.0, 0.0, 0.0)) -> str:
    """Add a link (given as XML) on a fixed joint under `parent`, before </robot>."""
    end = urdf_text.rfind("</robot>")
    if end < 0:
        raise SimError("URDF text has no closing </robot> tag")
    joint = (f'  <joint name="{joint_name}" type="fixed">\n'
             f'    <parent link="{parent}"/>\n    <child link="{child}"/>\n'
             f'    <origin xyz="{_fmt(xyz)}" rpy="{_fmt(rpy)}"/>\n  </joint>\n')
    return urdf_text[:end] + link_xml + joint + urdf_text[end:]


def _fmt(values) -> str:
    return " ".join(f"{float(v):.6g}" for v in values)
