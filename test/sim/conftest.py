"""Fixtures for the physics tests (worlds that close their PyBullet client)."""
from __future__ import annotations

import pytest

from robot_tasks.sim import World


@pytest.fixture
def stacking_world():
    with World(scene="franka_stacking", seed=1) as world:
        world.step(60)
        yield world


@pytest.fixture
def panda_world():
    """A bare world: ground plane and one Panda at the origin."""
    from robot_tasks.sim.robots import make_panda
    from robot_tasks.sim.scenes.common import add_plane

    with World() as world:
        add_plane(world)
        make_panda(world, "panda")
        yield world
