"""franka_pyramid: two Pandas facing each other across a table and six 5 cm cubes.

`panda_1` stands at x=0 facing +x, `panda_2` at x=1.0 facing -x.  With the default
`layout="scattered"` the cubes spawn at seeded random spots in the shared middle, to be
built into a 3-2-1 pyramid; `layout="pyramid"` starts with the pyramid already built
at (0.5, 0) (to take apart, or to test disturbances). Its rows run along x, from one
Panda to the other: the scene camera looks from -y, so every cube shows a face to it
(rows along y would hide all but the nearest cube of each row behind it), and each
Panda's fingers close along y, where no neighbour stands.
"""
from __future__ import annotations

import math

from robot_tasks.sim.errors import SimError
from robot_tasks.sim.objects import sample_separated_xy
from robot_tasks.sim.robots import make_panda
from robot_tasks.sim.scenes import register_scene
from robot_tasks.sim.scenes.common import CUBE_SIZE, TABLE_TOP_Z, add_cube, add_plane, add_scene_camera, add_table

CUBE_COLORS = ("red", "blue", "green", "yellow", "orange", "purple")
PYRAMID_CENTER = (0.5, 0.0)
PYRAMID_GAP = 0.004


def pyramid_slots(center=PYRAMID_CENTER, size: float = CUBE_SIZE, gap: float = PYRAMID_GAP):
    """(x, y, z_bottom) of the six cube places of a 3-2-1 pyramid along x, bottom row first."""
    pitch = size + gap
    cx, cy = center
    slots = [(cx + k * pitch, cy, TABLE_TOP_Z) for k in (-1, 0, 1)]
    slots += [(cx + k * pitch, cy, TABLE_TOP_Z + size) for k in (-0.5, 0.5)]
    slots.append((cx, cy, TABLE_TOP_Z + 2 * size))
    return slots


@register_scene("franka_pyramid", "two Pandas facing each other and six cubes between them")
def build(world, yaw_range: float = 0.5, layout: str = "scattered") -> None:
    add_plane(world)
    add_table(world)
    make_panda(world, "panda_1", (0.0, 0.0, TABLE_TOP_Z), yaw=0.0)
    make_panda(world, "panda_2", (1.0, 0.0, TABLE_TOP_Z), yaw=math.pi)
    if layout == "scattered":
        spots = sample_separated_xy(world.rng, len(CUBE_COLORS), (0.3, 0.7), (-0.35, 0.35), 0.1)
        for color, (x, y) in zip(CUBE_COLORS, spots):
            add_cube(world, color, x, y, float(world.rng.uniform(-yaw_range, yaw_range)))
    elif layout == "pyramid":
        colors = list(CUBE_COLORS)
        world.rng.shuffle(colors)            # the seed decides which colour sits where
        for color, (x, y, z) in zip(colors, pyramid_slots()):
            add_cube(world, color, x, y, 0.0, z=z + 0.0005)
    else:
        raise SimError(f"franka_pyramid: unknown layout '{layout}' (use 'scattered' or 'pyramid')")
    world.landmarks = {f"pyramid_slot_{i}": ((x, y, z + CUBE_SIZE / 2), (0, 0, 0, 1))
                       for i, (x, y, z) in enumerate(pyramid_slots())}
    add_scene_camera(world, position=(0.5, -0.75, 1.5), target=(0.5, 0.0, TABLE_TOP_Z))
    world.view = {"position": (1.35, -1.35, 1.45), "target": (0.5, 0.0, 0.7)}
