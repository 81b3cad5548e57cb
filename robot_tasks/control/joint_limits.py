"""Per-joint velocity, acceleration and jerk limits of an arm (pure: no ROS imports).

A URDF carries only a velocity limit per joint; acceleration and jerk limits come from the
robot maker's published data, kept in one YAML file per robot (config/limits/<robot>.yaml,
each naming its source):

    robot: panda
    source: "Franka docs, ..."
    joints:
      panda_joint1: {velocity: 2.175, acceleration: 15.0, jerk: 7500.0}

`JointLimits.combine(urdf_velocity, file)` takes the lower velocity of the two (a file
may be stricter than the description, never looser) and the file's acceleration and jerk.
`scaled(velocity_scaling, acceleration_scaling)` is what a motion may use: MoveIt's two
factors, each in (0, 1]; jerk is not scaled (it only shapes how fast acceleration builds up).
"""
from __future__ import annotations

import math
import os
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import yaml

from .errors import InputError

KINDS = ("velocity", "acceleration", "jerk")


@dataclass(frozen=True)
class JointLimits:
    """Limits of the arm joints, in `joint_names` order (rad/s, rad/s², rad/s³)."""

    joint_names: tuple
    velocity: np.ndarray
    acceleration: np.ndarray
    jerk: np.ndarray
    source: str = ""

    def __post_init__(self):
        n = len(self.joint_names)
        for kind in KINDS:
            values = np.asarray(getattr(self, kind), dtype=float).reshape(-1)
            if values.shape[0] != n:
                raise InputError(f"{kind} limits: {values.shape[0]} values for {n} joints")
            if not np.all(np.isfinite(values)) or np.any(values <= 0):
                raise InputError(f"{kind} limits must be positive and finite, got {values.tolist()}")
            object.__setattr__(self, kind, values)
        object.__setattr__(self, "joint_names", tuple(self.joint_names))

    def scaled(self, velocity_scaling: float = 1.0, acceleration_scaling: float = 1.0) -> "JointLimits":
        for name, value in (("velocity_scaling", velocity_scaling),
                            ("acceleration_scaling", acceleration_scaling)):
            if not (isinstance(value, (int, float)) and math.isfinite(value) and 0.0 < value <= 1.0):
                raise InputError(f"{name} must be in (0, 1], got {value!r}")
        return JointLimits(self.joint_names, self.velocity * velocity_scaling,
                           self.acceleration * acceleration_scaling, self.jerk, self.source)

    @classmethod
    def combine(cls, joint_names, urdf_velocity, file_limits: "JointLimits") -> "JointLimits":
        """The description's velocity limits (non-positive or non-finite = none given)
        merged with a limits file: the lower velocity, the file's acceleration and jerk."""
        by_name = dict(zip(file_limits.joint_names, range(len(file_limits.joint_names))))
        missing = [n for n in joint_names if n not in by_name]
        if missing:
            raise InputError(f"limits file ({file_limits.source or 'no source'}) has no entry "
                             f"for joints {missing}")
        idx = [by_name[n] for n in joint_names]
        urdf = np.asarray(urdf_velocity, dtype=float).reshape(-1)
        from_file = file_limits.velocity[idx]
        usable = np.isfinite(urdf) & (urdf > 0)
        velocity = np.where(usable, np.minimum(np.where(usable, urdf, np.inf), from_file), from_file)
        return cls(tuple(joint_names), velocity, file_limits.acceleration[idx],
                   file_limits.jerk[idx], file_limits.source)


def load_limits_file(path) -> JointLimits:
    """Read a config/limits/<robot>.yaml file (format in the module docstring)."""
    path = Path(path)
    try:
        data = yaml.safe_load(path.read_text())
    except (OSError, yaml.YAMLError) as exc:
        raise InputError(f"limits file {path}: {exc}") from None
    joints = data.get("joints") if isinstance(data, dict) else None
    if not isinstance(joints, dict) or not joints:
        raise InputError(f"limits file {path}: expected a 'joints' mapping")
    names, table = [], {kind: [] for kind in KINDS}
    for name, entry in joints.items():
        if not isinstance(entry, dict) or any(kind not in entry for kind in KINDS):
            raise InputError(f"limits file {path}: joint '{name}' needs {', '.join(KINDS)}")
        names.append(str(name))
        for kind in KINDS:
            table[kind].append(float(entry[kind]))
    try:
        return JointLimits(tuple(names), *(np.array(table[k]) for k in KINDS),
                           source=str(data.get("source", path)))
    except InputError as exc:
        raise InputError(f"limits file {path}: {exc}") from None


def default_limits_path(robot: str) -> Path:
    """config/limits/<robot>.yaml: in the source tree, else in an installed share folder
    (colcon: <prefix>/share/robot_tasks/config/limits)."""
    name = f"{robot}.yaml"
    candidates = [Path(__file__).resolve().parents[2] / "config" / "limits" / name]
    for prefix in os.environ.get("AMENT_PREFIX_PATH", "").split(os.pathsep):
        if prefix:
            candidates.append(Path(prefix) / "share" / "robot_tasks" / "config" / "limits" / name)
    for candidate in candidates:
        if candidate.is_file():
            return candidate
    raise InputError(f"no limits file for robot '{robot}'; looked in "
                     f"{[str(c) for c in candidates]}")
