"""Pieces shared by the scenes: ground plane, table, coloured cubes, the scene camera."""
from __future__ import annotations

import pybullet as p

from robot_tasks.robots import TABLE_TOP_Z
from robot_tasks.sim import assets
from robot_tasks.sim.camera import Camera
from robot_tasks.sim.objects import COLORS, SimObject, make_box

CUBE_SIZE = 0.05
CUBE_MASS = 0.1
CUBE_FRICTION = 1.0          # facts doc: >=0.5 with 20 N finger force holds a 5 cm cube


def add_plane(world) -> int:
    body = p.loadURDF(str(assets.pybullet_data_path("plane.urdf")), physicsClientId=world.client)
    world.static_bodies["plane"] = body
    return body


def add_table(world, position=(0.5, 0.0, 0.0)) -> int:
    """pybullet_data's table: top 1.5 x 1.0 m at z=0.625, centred at `position` xy."""
    body = p.loadURDF(str(assets.pybullet_data_path("table", "table.urdf")), list(position),
                      useFixedBase=True, physicsClientId=world.client)
    world.static_bodies["table"] = body
    return body


def add_cube(world, color: str, x: float, y: float, yaw: float = 0.0, z: float = TABLE_TOP_Z,
             size: float = CUBE_SIZE) -> SimObject:
    """A coloured cube resting on the surface at height z, named '<color>_cube'."""
    half = size / 2.0
    pos = (x, y, z + half)
    orn = p.getQuaternionFromEuler([0, 0, yaw])
    body = make_box(world.client, (half, half, half), pos, orn, CUBE_MASS, COLORS[color], CUBE_FRICTION)
    return world.add_object(SimObject(f"{color}_cube", "cube", body, (size, size, size), color,
                                      CUBE_MASS, pos, orn, rgba=COLORS[color]))


def add_scene_camera(world, position, target, width=640, height=480, fov_deg=60.0,
                     up=(0.0, 0.0, 1.0)) -> Camera:
    """The scene's perception camera, named "scene" (nodes may resize it)."""
    cam = Camera(world, width, height, fov_deg, position, target, up)
    world.add_camera("scene", cam)
    return cam
