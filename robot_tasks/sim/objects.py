"""Free objects of a scene (cubes, bins, YCB items) and their ground-truth states.

Ground truth is for evaluation, markers and tests; decisions in trees must come from
perception, never from here.
"""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import pybullet as p

from robot_tasks.sim.errors import SimError

COLORS = {
    "red": (0.85, 0.1, 0.1, 1.0), "blue": (0.1, 0.25, 0.85, 1.0),
    "green": (0.1, 0.7, 0.2, 1.0), "yellow": (0.95, 0.85, 0.1, 1.0),
    "orange": (1.0, 0.5, 0.05, 1.0), "purple": (0.55, 0.2, 0.75, 1.0),
    "grey": (0.55, 0.58, 0.6, 1.0), "wood": (0.72, 0.56, 0.36, 1.0),
    "dark": (0.2, 0.2, 0.22, 1.0), "white": (0.92, 0.92, 0.92, 1.0),
}


@dataclass
class SimObject:
    """A body the world tracks by name.  `size` is the xyz extent in its own frame."""

    name: str
    label: str            # class: "cube", "bin", "banana", "bowl"
    body_id: int
    size: tuple
    color: str = ""
    mass: float = 0.0
    spawn_position: tuple = (0.0, 0.0, 0.0)
    spawn_orientation: tuple = (0.0, 0.0, 0.0, 1.0)
    attributes: dict = field(default_factory=dict)
    rgba: tuple = (0.5, 0.5, 0.5, 1.0)     # display colour, e.g. for rviz markers


@dataclass(frozen=True)
class ObjectState:
    """Ground-truth state of one object at one sim time.

    `up_z` is the world z of the object's own +z axis: 1 upright, -1 upside down (a bin
    lying on its rim), about 0 on its side.
    """

    name: str
    label: str
    color: str
    position: tuple
    orientation: tuple       # quaternion x, y, z, w
    linear_velocity: tuple
    angular_velocity: tuple
    size: tuple
    up_z: float

    @property
    def upside_down(self) -> bool:
        return self.up_z < -0.5


def read_state(obj: SimObject, client: int) -> ObjectState:
    pos, orn = p.getBasePositionAndOrientation(obj.body_id, physicsClientId=client)
    lin, ang = p.getBaseVelocity(obj.body_id, physicsClientId=client)
    up_z = p.getMatrixFromQuaternion(orn)[8]
    return ObjectState(obj.name, obj.label, obj.color, pos, orn, lin, ang, obj.size, up_z)


def make_box(client: int, half_extents, position, orientation=(0, 0, 0, 1), mass=0.1,
             rgba=(0.5, 0.5, 0.5, 1), lateral_friction=1.0) -> int:
    """One solid box body (mass 0 makes it static)."""
    col = p.createCollisionShape(p.GEOM_BOX, halfExtents=list(half_extents), physicsClientId=client)
    vis = p.createVisualShape(p.GEOM_BOX, halfExtents=list(half_extents), rgbaColor=list(rgba),
                              physicsClientId=client)
    body = p.createMultiBody(mass, col, vis, list(position), list(orientation), physicsClientId=client)
    p.changeDynamics(body, -1, lateralFriction=lateral_friction, physicsClientId=client)
    return body


def make_compound(client: int, boxes, position, orientation=(0, 0, 0, 1), mass=0.0,
                  rgba=(0.5, 0.5, 0.5, 1), lateral_friction=1.0) -> int:
    """A single body made of boxes given as (half_extents, offset) in the body frame.

    One body with a compound shape (not one body per part) keeps it rigid and cheap.
    """
    halves = [list(h) for h, _ in boxes]
    offsets = [list(o) for _, o in boxes]
    col = p.createCollisionShapeArray([p.GEOM_BOX] * len(boxes), halfExtents=halves,
                                      collisionFramePositions=offsets, physicsClientId=client)
    vis = p.createVisualShapeArray([p.GEOM_BOX] * len(boxes), halfExtents=halves,
                                   visualFramePositions=offsets, rgbaColors=[list(rgba)] * len(boxes),
                                   physicsClientId=client)
    body = p.createMultiBody(mass, col, vis, list(position), list(orientation), physicsClientId=client)
    p.changeDynamics(body, -1, lateralFriction=lateral_friction, physicsClientId=client)
    return body


def open_bin_boxes(size, wall: float):
    """Boxes of an open-top bin (floor + 4 walls), body origin at the bin's centre."""
    sx, sy, sz = (s / 2 for s in size)
    return [
        ((sx, sy, wall / 2), (0, 0, -sz + wall / 2)),                    # floor
        ((sx, wall / 2, sz), (0, sy - wall / 2, 0)),                     # +y wall
        ((sx, wall / 2, sz), (0, -sy + wall / 2, 0)),                    # -y wall
        ((wall / 2, sy - wall, sz), (sx - wall / 2, 0, 0)),              # +x wall
        ((wall / 2, sy - wall, sz), (-sx + wall / 2, 0, 0)),             # -x wall
    ]


def sample_separated_xy(rng: np.random.Generator, count: int, x_range, y_range, min_dist: float,
                        max_tries: int = 2000) -> list[tuple[float, float]]:
    """Rejection-sample `count` xy points at least `min_dist` apart (deterministic per rng)."""
    points: list[tuple[float, float]] = []
    for _ in range(max_tries):
        if len(points) == count:
            break
        cand = (float(rng.uniform(*x_range)), float(rng.uniform(*y_range)))
        if all((cand[0] - a) ** 2 + (cand[1] - b) ** 2 >= min_dist ** 2 for a, b in points):
            points.append(cand)
    if len(points) < count:
        raise SimError(f"could not place {count} objects {min_dist} m apart in {x_range}x{y_range}")
    return points
