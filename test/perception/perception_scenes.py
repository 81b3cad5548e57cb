"""Small PyBullet scenes for perception tests, built directly (no robot_tasks.sim).

A table from pybullet_data, coloured boxes/bins placed at rest on it, and a camera
rendered with ER_TINY_RENDERER as the sim does. Ground truth is read back from PyBullet.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import pybullet as p
import pybullet_data

from robot_tasks.perception.pybullet_camera import (
    camera_from_pybullet,
    depth_from_pybullet_buffer,
    near_far_from_pybullet_projection,
)

TABLE_TOP = 0.625               # table/table.urdf top surface (measured by back-projection)
CUBE = 0.05
# The sim's palette (robot_tasks/sim/objects.py COLORS).
RGBA = {"red": (0.85, 0.1, 0.1, 1.0), "blue": (0.1, 0.25, 0.85, 1.0),
        "green": (0.1, 0.7, 0.2, 1.0), "yellow": (0.95, 0.85, 0.1, 1.0),
        "orange": (1.0, 0.5, 0.05, 1.0), "grey": (0.55, 0.58, 0.6, 1.0),
        "bin": (0.2, 0.35, 0.6, 1.0)}   # ur10_palletizing's BIN_RGBA


@dataclass
class Frame:
    rgb: np.ndarray
    depth: np.ndarray
    intrinsics: object
    world_T_camera: np.ndarray


class TableScene:
    """One PyBullet DIRECT client holding a plane and a table; add objects, then render."""

    def __init__(self):
        self.client = p.connect(p.DIRECT)
        p.setAdditionalSearchPath(pybullet_data.getDataPath(), physicsClientId=self.client)
        p.loadURDF("plane.urdf", physicsClientId=self.client)
        p.loadURDF("table/table.urdf", [0.5, 0.0, 0.0], physicsClientId=self.client)
        self.bodies: dict[str, int] = {}

    def close(self) -> None:
        p.disconnect(self.client)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def add_box(self, name: str, color: str, half_extents, xy, yaw: float = 0.0,
                z: float | None = None, roll: float = 0.0, orientation=None) -> int:
        """A box resting on the table (or at ``z``), turned by ``yaw`` and ``roll``, or by
        the quaternion ``orientation`` (x, y, z, w) when given."""
        cid = self.client
        col = p.createCollisionShape(p.GEOM_BOX, halfExtents=list(half_extents), physicsClientId=cid)
        vis = p.createVisualShape(p.GEOM_BOX, halfExtents=list(half_extents), rgbaColor=RGBA[color],
                                  physicsClientId=cid)
        z = TABLE_TOP + half_extents[2] if z is None else z
        body = p.createMultiBody(0.1, col, vis, [xy[0], xy[1], z],
                                 p.getQuaternionFromEuler([roll, 0, yaw]) if orientation is None
                                 else list(orientation), physicsClientId=cid)
        self.bodies[name] = body
        return body

    def add_cube(self, color: str, xy, yaw: float = 0.0, z: float | None = None) -> int:
        return self.add_box(f"{color}_cube", color, [CUBE / 2] * 3, xy, yaw, z)

    def add_open_bin(self, name: str, color: str, size, xy, yaw: float = 0.0,
                     upside_down: bool = False, wall: float = 0.01, pitch: float = 0.0,
                     z: float | None = None) -> int:
        """An open-top bin (floor + 4 walls, one compound body, origin at its centre).

        ``pitch`` tilts it about its own y axis (after the flip); with a tilt give ``z``, as
        the bin is held where it is put (these scenes are rendered, never stepped)."""
        cid = self.client
        sx, sy, sz = (s / 2 for s in size)
        boxes = [((sx, sy, wall / 2), (0, 0, -sz + wall / 2)),
                 ((sx, wall / 2, sz), (0, sy - wall / 2, 0)),
                 ((sx, wall / 2, sz), (0, -sy + wall / 2, 0)),
                 ((wall / 2, sy - wall, sz), (sx - wall / 2, 0, 0)),
                 ((wall / 2, sy - wall, sz), (-sx + wall / 2, 0, 0))]
        halves = [list(h) for h, _ in boxes]
        offsets = [list(o) for _, o in boxes]
        col = p.createCollisionShapeArray([p.GEOM_BOX] * 5, halfExtents=halves,
                                          collisionFramePositions=offsets, physicsClientId=cid)
        vis = p.createVisualShapeArray([p.GEOM_BOX] * 5, halfExtents=halves, visualFramePositions=offsets,
                                       rgbaColors=[list(RGBA[color])] * 5, physicsClientId=cid)
        orn = p.getQuaternionFromEuler([math.pi if upside_down else 0.0, pitch, yaw])
        z = TABLE_TOP + sz if z is None else z
        body = p.createMultiBody(1.0, col, vis, [xy[0], xy[1], z], orn, physicsClientId=cid)
        self.bodies[name] = body
        return body

    def pose(self, name: str):
        pos, orn = p.getBasePositionAndOrientation(self.bodies[name], physicsClientId=self.client)
        return np.array(pos), np.array(orn)

    def render(self, eye, target, width=640, height=480, up=(0, 0, 1), fov=60.0,
               near=0.05, far=5.0) -> Frame:
        view = p.computeViewMatrix(list(eye), list(target), list(up), physicsClientId=self.client)
        proj = p.computeProjectionMatrixFOV(fov, width / height, near, far, physicsClientId=self.client)
        _, _, rgba, zbuf, _ = p.getCameraImage(width, height, view, proj, renderer=p.ER_TINY_RENDERER,
                                               flags=p.ER_NO_SEGMENTATION_MASK,
                                               physicsClientId=self.client)
        rgba = np.asarray(rgba, dtype=np.uint8).reshape(height, width, 4)
        n, f = near_far_from_pybullet_projection(proj)
        depth = depth_from_pybullet_buffer(np.asarray(zbuf).reshape(height, width), n, f)
        intrinsics, pose = camera_from_pybullet(view, proj, width, height)
        return Frame(rgba[..., :3].copy(), depth, intrinsics, pose)


# Cameras used by the tests: straight down, and oblique like a camera on a post.
TOP_DOWN = dict(eye=(0.5, 0.0, 1.45), target=(0.5, 0.0, TABLE_TOP), up=(1, 0, 0))
OBLIQUE = dict(eye=(1.05, 0.0, 1.35), target=(0.5, 0.0, TABLE_TOP), up=(0, 0, 1))


def random_cube_scene(seed: int, colors=("red", "blue", "green", "yellow"),
                      x_range=(0.32, 0.68), y_range=(-0.2, 0.2), min_dist=0.09) -> TableScene:
    """The four cubes at seeded random, well separated spots and yaws on the table."""
    rng = np.random.default_rng(seed)
    scene = TableScene()
    placed: list[tuple[float, float]] = []
    while len(placed) < len(colors):
        xy = (float(rng.uniform(*x_range)), float(rng.uniform(*y_range)))
        if all(math.dist(xy, q) >= min_dist for q in placed):
            placed.append(xy)
    for color, xy in zip(colors, placed):
        scene.add_cube(color, xy, yaw=float(rng.uniform(-math.pi, math.pi)))
    return scene
