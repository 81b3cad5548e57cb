"""franka_stacking: a Panda on a table and four 5 cm cubes (red, blue, green, yellow).

Cubes spawn at seeded random, non-overlapping positions within the Panda's reach, with
a seeded yaw in +-`yaw_range` rad.  The scene camera looks down at the workspace from
in front of the robot.
"""
from __future__ import annotations

from robot_tasks.sim.objects import sample_separated_xy
from robot_tasks.sim.robots import make_panda
from robot_tasks.sim.scenes import register_scene
from robot_tasks.sim.scenes.common import TABLE_TOP_Z, add_cube, add_plane, add_scene_camera, add_table

CUBE_COLORS = ("red", "blue", "green", "yellow")
SPAWN_X = (0.35, 0.65)
SPAWN_Y = (-0.30, 0.30)
MIN_SPACING = 0.10


@register_scene("franka_stacking", "Panda on a table with red/blue/green/yellow 5 cm cubes")
def build(world, yaw_range: float = 0.5) -> None:
    add_plane(world)
    add_table(world)
    make_panda(world, "panda", (0.0, 0.0, TABLE_TOP_Z))
    spots = sample_separated_xy(world.rng, len(CUBE_COLORS), SPAWN_X, SPAWN_Y, MIN_SPACING)
    for color, (x, y) in zip(CUBE_COLORS, spots):
        add_cube(world, color, x, y, float(world.rng.uniform(-yaw_range, yaw_range)))
    add_scene_camera(world, position=(0.95, 0.0, 1.55), target=(0.45, 0.0, TABLE_TOP_Z))
    world.view = {"position": (1.5, -1.0, 1.45), "target": (0.3, 0.0, 0.82)}
