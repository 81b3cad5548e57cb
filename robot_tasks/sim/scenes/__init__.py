"""Scene registry: each scene is a seeded builder function registered by name.

    from robot_tasks.sim import World
    world = World(scene="franka_stacking", seed=7)      # builds via build_scene()

A builder receives the fresh World (its `rng` already seeded) and adds robots, objects,
cameras and updaters.  Same seed -> same scene; `world.reset(seed)` rebuilds.
"""
from __future__ import annotations

import importlib
from dataclasses import dataclass
from typing import Callable

from robot_tasks.sim.errors import UnknownName


@dataclass(frozen=True)
class SceneSpec:
    name: str
    description: str
    builder: Callable


SCENES: dict[str, SceneSpec] = {}
_MODULES = ("franka_stacking", "banana_bowl", "franka_pyramid", "ur10_palletizing")


def register_scene(name: str, description: str):
    """Decorator: register `builder(world, **options)` under `name`."""

    def wrap(fn):
        SCENES[name] = SceneSpec(name, description, fn)
        return fn

    return wrap


def _load_all() -> None:
    for module in _MODULES:
        importlib.import_module(f"{__name__}.{module}")


def scene_names() -> list[str]:
    _load_all()
    return sorted(SCENES)


def build_scene(world, name: str, **options) -> None:
    _load_all()
    if name not in SCENES:
        raise UnknownName("scene", name, SCENES)
    SCENES[name].builder(world, **options)
