"""Lighter visual meshes for the sim's camera: far fewer triangles, the same look.

Why: TinyRenderer, PyBullet's CPU rasteriser, pays for every triangle it is given, even
one smaller than a pixel. The Panda's visual meshes (pybullet_data) hold 101 k
triangles, and at the camera's 320x240 the arm cost about 29 ms of a 37 ms frame, the
largest single cost of the sim node faster than real time. Most of those triangles are
a fraction of a pixel wide in that image.

How: quadric edge collapse (Garland and Heckbert, 1997; the `fast-simplification`
package) repeatedly merges the two ends of the edge whose removal moves the surface
least, until a given fraction of the triangles is left. Texture coordinates must come
through intact, because the Panda takes its colours from a texture:
- vertices are first merged where both position and texture coordinate agree, so a
  texture seam is an open border of the mesh;
- no collapse touches a border vertex (`preserve_border`), so no triangle ever spans a
  seam, and no colour crosses one;
- every vertex that survives keeps its own texture coordinate.

What it leaves alone: only the sim's own URDF is rewritten, and only its `<visual>`
meshes. Collision meshes are untouched, so the physics is the same. `robot_description`
keeps the full meshes for rviz and Foxglove, which draw on a GPU.

Results are cached (assets.cache_dir): one folder per source mesh, named after the
source file's content and the kept fraction. A folder is built under a temporary name
and renamed into place, so two processes starting at once never see half a mesh.
"""
from __future__ import annotations

import hashlib
import os
import shutil
import tempfile
from pathlib import Path
from xml.etree import ElementTree

from defusedxml import ElementTree as SafeElementTree

from robot_tasks.sim import assets

CACHE_FOLDER = "light_meshes"
FORMAT_VERSION = "1"          # bump when the output of `light_mesh` changes for the same input
MIN_TRIANGLES = 2000          # smaller meshes cost little to draw: they are used as they are


def light_mesh(source: Path, keep: float) -> Path:
    """Path of a copy of the OBJ mesh `source` with about `keep` of its triangles.

    Returns `source` itself when it is not an OBJ file or has fewer than MIN_TRIANGLES.
    """
    if not 0.0 < keep <= 1.0:
        raise ValueError(f"keep must be in (0, 1], got {keep}")
    source = Path(source)
    if keep == 1.0 or source.suffix.lower() != ".obj":
        return source
    digest = hashlib.sha1(source.read_bytes() + f"|{keep:.4f}|{FORMAT_VERSION}".encode()).hexdigest()[:12]
    folder = assets.cache_dir(CACHE_FOLDER) / f"{source.stem}-{digest}"
    target = folder / source.name
    marker = folder / "SOURCE"       # written for meshes that are kept as they are
    if target.is_file():
        return target
    if marker.is_file():
        return source
    staging = Path(tempfile.mkdtemp(dir=folder.parent, prefix=f".{source.stem}-"))
    try:
        if _simplify_into(source, keep, staging / source.name):
            result = target
        else:
            (staging / "SOURCE").write_text(str(source))
            result = source
        try:
            os.rename(staging, folder)
        except OSError:               # another process finished first: its copy is the same
            pass
    finally:
        shutil.rmtree(staging, ignore_errors=True)
    return result


def _simplify_into(source: Path, keep: float, target: Path) -> bool:
    """Write the simplified mesh (OBJ + MTL + texture) to `target`; False if too small to bother."""
    import fast_simplification
    import numpy as np
    import trimesh

    mesh = trimesh.load(source, force="mesh", process=False)
    if len(mesh.faces) < MIN_TRIANGLES:
        return False
    uv = getattr(mesh.visual, "uv", None)
    if uv is not None:
        mesh.merge_vertices(merge_tex=False, merge_norm=True)    # seams stay split: borders
        uv = mesh.visual.uv
    points, faces, collapses = fast_simplification.simplify(
        mesh.vertices, mesh.faces, target_reduction=1.0 - keep, preserve_border=True, return_collapses=True)
    if uv is None:
        visual = None
    else:
        _, _, new_index = fast_simplification.replay_simplification(mesh.vertices, mesh.faces, collapses)
        survivors = np.setdiff1d(np.arange(len(uv)), collapses[:, 1])   # collapses[i] = [kept, removed]
        new_uv = np.zeros((len(points), 2))
        new_uv[new_index[survivors]] = uv[survivors]
        visual = trimesh.visual.TextureVisuals(uv=new_uv, material=mesh.visual.material)
    light = trimesh.Trimesh(points, faces, visual=visual, process=False)
    light.export(target, mtl_name=f"{source.stem}.mtl")
    return True


def light_visual_urdf(urdf_text: str, keep: float) -> str:
    """`urdf_text` (mesh paths absolute) with each `<visual>` OBJ mesh replaced by its light copy."""
    root = SafeElementTree.fromstring(urdf_text)
    for mesh in root.iterfind("./link/visual/geometry/mesh"):
        filename = mesh.get("filename", "")
        if Path(filename).is_absolute():
            mesh.set("filename", str(light_mesh(Path(filename), keep)))
    return ElementTree.tostring(root, encoding="unicode")
