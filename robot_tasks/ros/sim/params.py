"""The sim node's ROS parameters: declared in one place, checked, with reasons on error.

| parameter          | default | meaning                                                        |
|--------------------|---------|----------------------------------------------------------------|
| scene              | franka_stacking | scene name (robot_tasks.sim.scenes)                    |
| seed               | 0       | scene seed (same seed, same scene)                             |
| rate               | 240.0   | physics steps per sim second                                   |
| real_time_factor   | 1.0     | sim seconds per wall second; 0 = as fast as possible           |
| joint_state_rate   | 100.0   | <ns>/joint_states per sim second                               |
| clock_rate         | 100.0   | /clock per sim second (raised to joint_state_rate if lower)    |
| camera_rate        | 5.0     | RGB-D frames per sim second; 0 = camera off                    |
| camera_width/height| 320/240 | image size in pixels                                           |
| object_rate        | 10.0    | objects + object_markers per sim second; 0 = off               |
| namespaces.<robot> | <robot> | topic namespace of one robot ("" = the node's own namespace)   |

Numbers accept ints or floats (`-p real_time_factor:=1` works).  `use_sim_time` is
forced false: this node is the clock source.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

from rcl_interfaces.msg import ParameterDescriptor


class SimParamError(ValueError):
    """A parameter value the node cannot run with; the message names the parameter."""


@dataclass(frozen=True)
class SimParams:
    scene: str
    seed: int
    rate: float
    real_time_factor: float
    joint_state_rate: float
    clock_rate: float
    camera_rate: float
    camera_width: int
    camera_height: int
    object_rate: float


DEFAULTS = dict(scene="franka_stacking", seed=0, rate=240.0, real_time_factor=1.0,
                joint_state_rate=100.0, clock_rate=100.0, camera_rate=5.0,
                camera_width=320, camera_height=240, object_rate=10.0)

_DYNAMIC = ParameterDescriptor(dynamic_typing=True)   # accept 1 as well as 1.0


def _number(node, name: str, minimum: float, strict: bool) -> float:
    value = node.get_parameter(name).value
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise SimParamError(f"parameter '{name}' must be a number, got {value!r}")
    value = float(value)
    too_small = value <= minimum if strict else value < minimum
    if not math.isfinite(value) or too_small:
        rel = ">" if strict else ">="
        raise SimParamError(f"parameter '{name}' must be a finite number {rel} {minimum:g}, got {value!r}")
    return value


def _integer(node, name: str, lo: int, hi: int) -> int:
    value = node.get_parameter(name).value
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    if isinstance(value, bool) or not isinstance(value, int) or not lo <= value <= hi:
        raise SimParamError(f"parameter '{name}' must be an integer in [{lo}, {hi}], got {value!r}")
    return value


def declare_sim_params(node, known_scenes) -> SimParams:
    """Declare every parameter on `node`, read them, and check them (SimParamError)."""
    for name, default in DEFAULTS.items():
        node.declare_parameter(name, default, _DYNAMIC)
    scene = node.get_parameter("scene").value
    if not isinstance(scene, str) or scene not in known_scenes:
        known = ", ".join(sorted(known_scenes))
        raise SimParamError(f"parameter 'scene': unknown scene {scene!r} (known: {known})")
    js_rate = _number(node, "joint_state_rate", 0.0, strict=True)
    return SimParams(
        scene=scene,
        seed=_integer(node, "seed", 0, 2**32 - 1),
        rate=_number(node, "rate", 0.0, strict=True),
        real_time_factor=_number(node, "real_time_factor", 0.0, strict=False),
        joint_state_rate=js_rate,
        clock_rate=max(_number(node, "clock_rate", 0.0, strict=True), js_rate),
        camera_rate=_number(node, "camera_rate", 0.0, strict=False),
        camera_width=_integer(node, "camera_width", 16, 4096),
        camera_height=_integer(node, "camera_height", 16, 4096),
        object_rate=_number(node, "object_rate", 0.0, strict=False),
    )


def robot_namespace(node, robot_name: str) -> str:
    """Declare and read `namespaces.<robot>` (default: the robot's name); "" = node namespace."""
    name = f"namespaces.{robot_name}"
    value = node.declare_parameter(name, robot_name).value
    if not isinstance(value, str):
        raise SimParamError(f"parameter '{name}' must be a string, got {value!r}")
    value = value.strip("/")
    if value and not all(part.replace("_", "a").isalnum() and not part[0].isdigit()
                         for part in value.split("/")):
        raise SimParamError(f"parameter '{name}': {value!r} is not a valid ROS namespace")
    return value
