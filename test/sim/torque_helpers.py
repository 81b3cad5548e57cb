"""Worlds for the torque-control tests: physics at 960 Hz (240 Hz world, 4 sub-steps)."""
from __future__ import annotations

import contextlib

from robot_tasks.sim import World
from robot_tasks.sim.compliant import arm_dynamics
from robot_tasks.sim.controller_switch import add_compliant_controller
from robot_tasks.sim.robots import make_panda
from robot_tasks.sim.scenes.common import add_plane

SUBSTEPS = 4


@contextlib.contextmanager
def torque_panda_world():
    """A plane and a Panda loaded with its URDF inertias, physics at 960 Hz."""
    with World(physics_substeps=SUBSTEPS) as world:
        add_plane(world)
        make_panda(world, "panda", inertia_from_file=True)
        world.step(10)
        yield world, world.robot("panda")


def attach(robot, name, make_law, sensor=None):
    """Build a law on the robot's Pinocchio dynamics, attach it and switch to it."""
    law = make_law(arm_dynamics(robot))
    add_compliant_controller(robot, name, law, sensor)
    robot.controllers.switch(name)
    return law


def seconds(world, duration: float) -> int:
    return int(round(duration / world.time_step))
