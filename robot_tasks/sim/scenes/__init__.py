"""Scene registry: each scene is a seeded builder function registered by name.

    from robot_tasks.sim import World
    world = World(scene="franka_stacking", seed=7)      # builds via build_scene()

A builder receives the fresh World (its `rng` already seeded) and adds robots, objects,
cameras and updaters.  Same seed -> same scene; `world.reset(seed)` rebuilds.

A scene that runs torque controllers states the physics rate it needs
(`min_physics_rate`); the World then sub-steps its physics that much (`physics_substeps`)
and keeps its own step, so callers see the same `time_step` for every scene.
"""
from __future__ import annotations

import importlib
import math
import pkgutil
from dataclasses import dataclass
from typing import Callable

from robot_tasks.sim.errors import UnknownName


@dataclass(frozen=True)
class SceneSpec:
    name: str
    description: str
    builder: Callable
    min_physics_rate: float = 0.0      # Hz; > 0 for scenes with torque-level controllers


SCENES: dict[str, SceneSpec] = {}


def register_scene(name: str, description: str, min_physics_rate: float = 0.0):
    """Decorator: register `builder(world, **options)` under `name`."""

    def wrap(fn):
        SCENES[name] = SceneSpec(name, description, fn, float(min_physics_rate))
        return fn

    return wrap


def _load_all() -> None:
    """Import every module of this package: each scene module registers its builders, so a
    new scene is found by adding its file."""
    for info in pkgutil.iter_modules(__path__):
        importlib.import_module(f"{__name__}.{info.name}")


def scene_names() -> list[str]:
    _load_all()
    return sorted(SCENES)


def scene_spec(name: str) -> SceneSpec:
    _load_all()
    if name not in SCENES:
        raise UnknownName("scene", name, SCENES)
    return SCENES[name]


def substeps_for(name: str, time_step: float) -> int:
    """Physics sub-steps per world step that give scene `name` its minimum physics rate."""
    rate = scene_spec(name).min_physics_rate
    return max(1, math.ceil(rate * time_step - 1e-9)) if rate > 0 else 1


def build_scene(world, name: str, **options) -> None:
    _load_all()
    if name not in SCENES:
        raise UnknownName("scene", name, SCENES)
    SCENES[name].builder(world, **options)
