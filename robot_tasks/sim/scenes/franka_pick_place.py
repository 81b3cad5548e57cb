"""franka_pick_place: a Panda on a table, one 5 cm red cube, and a target point to put it on.

The simplest pick-and-place there is (Isaac Sim's Franka pick-place example: one cube, one
goal position). Both places come from the seed:

- the target point is `target_for_seed(seed)`, a pure function, because the target is the
  task's *input*, not something the robot finds out: the demo sends the same point to the
  tree in the ExecuteTree payload (robot_tasks/tasks/pick_place/episode.py), so the scene
  and the goal agree without the tree ever reading the sim;
- the cube spawns at a seeded spot within the Panda's reach, at least `MIN_SEPARATION`
  from the target (a cube that starts on its target would be no task), with a seeded yaw.

The target is shown by a flat grey square on the table top: visual only (nothing collides
with it, so the cube rests on the table through it), registered as the world object
"target" so the sim's ground truth (the `objects` topic) carries it -- the grader reads
the target from there. Perception looks only for the cube's label, so the square is
never a detection. The camera is franka_stacking's: in front of the robot, looking down.
"""
from __future__ import annotations

import math

import numpy as np
import pybullet as p

from robot_tasks.robots import TABLE_TOP_Z
from robot_tasks.sim.errors import SimError
from robot_tasks.sim.objects import COLORS, SimObject
from robot_tasks.sim.robots import make_panda
from robot_tasks.sim.scenes import register_scene
from robot_tasks.sim.scenes.common import add_cube, add_plane, add_scene_camera, add_table

CUBE_COLOR = "red"
CUBE_NAME = f"{CUBE_COLOR}_cube"
TARGET_NAME = "target"
# Where the cube may spawn (world x, y) [m]: franka_stacking's spawn box, which the
# Panda reaches with a top-down grasp and the scene camera sees whole.
SPAWN_X = (0.35, 0.65)
SPAWN_Y = (-0.30, 0.30)
# The target: a little inside the spawn box, so the cube set down on it is never at the
# edge of the reach or of the camera's view.
TARGET_X = (0.38, 0.62)
TARGET_Y = (-0.25, 0.25)
MIN_SEPARATION = 0.15      # m between the cube's spawn and the target (three cube edges)
MARKER_SIZE = 0.07         # m: the square's side, a cube edge plus 1 cm each way
MARKER_THICKNESS = 0.002   # m
# The target's own random stream: seeded by (seed, this number), so it does not depend
# on how many draws the scene makes from world.rng before or after.
TARGET_STREAM = 34


def target_for_seed(seed: int) -> tuple[float, float]:
    """The target point (world x, y) [m] of episode `seed`, on the table top."""
    rng = np.random.default_rng((int(seed), TARGET_STREAM))
    return (round(float(rng.uniform(*TARGET_X)), 4), round(float(rng.uniform(*TARGET_Y)), 4))


def cube_spawn(rng: np.random.Generator, target: tuple[float, float], max_tries: int = 1000) -> tuple[float, float]:
    """A spot in the spawn box at least MIN_SEPARATION from `target` (deterministic per rng)."""
    for _ in range(max_tries):
        x, y = float(rng.uniform(*SPAWN_X)), float(rng.uniform(*SPAWN_Y))
        if math.hypot(x - target[0], y - target[1]) >= MIN_SEPARATION:
            return (x, y)
    raise SimError(f"franka_pick_place: no cube spawn {MIN_SEPARATION} m from the target {target}")


def add_target_marker(world, xy: tuple[float, float]) -> SimObject:
    """The flat, visual-only square marking the target, as world object TARGET_NAME."""
    half = (MARKER_SIZE / 2.0, MARKER_SIZE / 2.0, MARKER_THICKNESS / 2.0)
    rgba = COLORS["grey"]
    visual = p.createVisualShape(p.GEOM_BOX, halfExtents=list(half), rgbaColor=list(rgba),
                                 physicsClientId=world.client)
    position = (xy[0], xy[1], TABLE_TOP_Z + MARKER_THICKNESS / 2.0)
    body = p.createMultiBody(0.0, -1, visual, list(position), physicsClientId=world.client)
    return world.add_object(SimObject(TARGET_NAME, "target", body, (MARKER_SIZE, MARKER_SIZE, MARKER_THICKNESS),
                                      "grey", 0.0, position, (0.0, 0.0, 0.0, 1.0), rgba=rgba))


@register_scene("franka_pick_place", "Panda on a table, one red 5 cm cube and a target point (seeded)")
def build(world, yaw_range: float = 0.5) -> None:
    add_plane(world)
    add_table(world)
    make_panda(world, "panda", (0.0, 0.0, TABLE_TOP_Z))
    target = target_for_seed(world.seed)
    add_target_marker(world, target)
    x, y = cube_spawn(world.rng, target)
    add_cube(world, CUBE_COLOR, x, y, float(world.rng.uniform(-yaw_range, yaw_range)))
    add_scene_camera(world, position=(0.95, 0.0, 1.55), target=(0.45, 0.0, TABLE_TOP_Z))
    world.view = {"position": (1.5, -1.0, 1.45), "target": (0.3, 0.0, 0.82)}
