"""banana_bowl: a Panda, a YCB banana and a YCB bowl on the table (both free bodies).

`pick_object` (a YCB name of PICK_OBJECTS, default 011_banana) swaps the banana for
another object to pick, e.g. World(scene="banana_bowl", pick_object="014_lemon"); the
object's scene name and label are its short name ("banana", "lemon").

Collision shapes are cached V-HACD decompositions (see robot_tasks.sim.ycb); visuals are
the original YCB meshes.  Each body's frame is at its centre of mass.
"""
from __future__ import annotations

import pybullet as p

from robot_tasks.sim.errors import SimError
from robot_tasks.sim.objects import COLORS, SimObject
from robot_tasks.sim.robots import make_panda
from robot_tasks.sim.scenes import register_scene
from robot_tasks.sim.scenes.common import TABLE_TOP_Z, add_plane, add_scene_camera, add_table
from robot_tasks.sim.ycb import load_ycb

BANANA_MASS = 0.12
BOWL_MASS = 0.25
BOWL_YCB = "024_bowl"
# YCB name -> (scene name and label, mass kg, rgba)
PICK_OBJECTS = {
    "011_banana": ("banana", BANANA_MASS, (1.0, 0.85, 0.1, 1.0)),
    "014_lemon": ("lemon", 0.08, (0.95, 0.90, 0.15, 1.0)),
}


def add_ycb(world, ycb_name: str, name: str, label: str, x: float, y: float, yaw: float,
            mass: float, rgba, friction: float = 1.0, z: float = TABLE_TOP_Z) -> SimObject:
    """A YCB object standing on the surface at height z (its YCB frame origin is its bottom)."""
    mesh = load_ycb(ycb_name)
    offset = (-mesh.center_of_mass).tolist()
    cid = world.client
    col = p.createCollisionShape(p.GEOM_MESH, fileName=str(mesh.collision_path),
                                 collisionFramePosition=offset, physicsClientId=cid)
    vis = p.createVisualShape(p.GEOM_MESH, fileName=str(mesh.visual_path), visualFramePosition=offset,
                              rgbaColor=list(rgba), physicsClientId=cid)
    orn = p.getQuaternionFromEuler([0, 0, yaw])
    # Frame at the COM: lift by the COM height (+2 mm so it settles, not pops out).
    pos = (x, y, z + float(mesh.center_of_mass[2]) + 0.002)
    body = p.createMultiBody(mass, col, vis, list(pos), orn, physicsClientId=cid)
    p.changeDynamics(body, -1, lateralFriction=friction, physicsClientId=cid)
    return world.add_object(SimObject(name, label, body, tuple(mesh.extents.tolist()), "", mass, pos, orn,
                                      rgba=tuple(rgba)))


@register_scene("banana_bowl", "Panda, YCB banana and YCB bowl on a table")
def build(world, pick_object: str = "011_banana") -> None:
    if pick_object not in PICK_OBJECTS:
        raise SimError(f"banana_bowl: pick_object {pick_object!r} unknown; known: {', '.join(PICK_OBJECTS)}")
    name, mass, rgba = PICK_OBJECTS[pick_object]
    add_plane(world)
    add_table(world)
    make_panda(world, "panda", (0.0, 0.0, TABLE_TOP_Z))
    rng = world.rng
    add_ycb(world, pick_object, name, name, float(rng.uniform(0.40, 0.60)),
            float(rng.uniform(-0.30, -0.12)), float(rng.uniform(-1.0, 1.0)), mass, rgba)
    add_ycb(world, BOWL_YCB, "bowl", "bowl", float(rng.uniform(0.40, 0.60)),
            float(rng.uniform(0.12, 0.30)), 0.0, BOWL_MASS, COLORS["blue"])
    add_scene_camera(world, position=(0.95, 0.0, 1.55), target=(0.45, 0.0, TABLE_TOP_Z))
    world.view = {"position": (1.5, -1.0, 1.45), "target": (0.3, 0.0, 0.82)}
