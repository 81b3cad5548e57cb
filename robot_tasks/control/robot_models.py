"""Where the two supported arms' URDFs live on disk, and which chain of each we control.

Both models come from pip packages, so no network is needed:
- Panda: pybullet_data's `franka_panda/panda.urdf` (7 arm joints + 2 fingers). Its meshes
  use `package://meshes/...`, so the package directory is the `franka_panda` folder.
- UR10: example-robot-data's `ur_description/urdf/ur10_robot.urdf`. That wheel installs no
  Python module; its files sit under `<site-packages>/cmeel.prefix/share`, which is also the
  package directory for its `package://example-robot-data/...` mesh URIs.

This module only locates files; it imports neither pybullet nor pinocchio.
"""
from __future__ import annotations

import importlib.util
import os
import site
import sys
from dataclasses import dataclass, field

from robot_tasks.robots import PANDA_ARM_JOINTS, PANDA_FINGER_JOINTS, PANDA_HOME, UR10_ARM_JOINTS

from .errors import ModelError


@dataclass(frozen=True)
class ArmSpec:
    """Everything needed to build kinematics for one arm.

    `locked_joints` maps joints outside the controlled chain (e.g. fingers) to the value
    they are frozen at; `package_dirs` resolve `package://` mesh URIs for collision models.
    """

    name: str
    urdf_path: str
    base_frame: str
    tip_frame: str
    joint_names: tuple
    package_dirs: tuple
    locked_joints: dict = field(default_factory=dict)
    home: tuple = ()


def _site_dirs() -> list:
    dirs = list(site.getsitepackages()) if hasattr(site, "getsitepackages") else []
    dirs += [p for p in sys.path if p.endswith("site-packages")]
    return list(dict.fromkeys(dirs))


def pybullet_data_dir() -> str:
    """Directory of the `pybullet_data` package, found without importing pybullet."""
    spec = importlib.util.find_spec("pybullet_data")
    if spec is None or not spec.submodule_search_locations:
        raise ModelError("package 'pybullet_data' is not installed (pip install pybullet)")
    return list(spec.submodule_search_locations)[0]


def example_robot_data_share() -> str:
    """The `cmeel.prefix/share` directory that holds example-robot-data's robots."""
    for base in _site_dirs():
        share = os.path.join(base, "cmeel.prefix", "share")
        if os.path.isdir(os.path.join(share, "example-robot-data")):
            return share
    raise ModelError("example-robot-data not found under any site-packages "
                     "(pip install example-robot-data)")


def _existing(path: str) -> str:
    if not os.path.isfile(path):
        raise ModelError(f"URDF not found: {path}")
    return path


def panda_urdf_path() -> str:
    return _existing(os.path.join(pybullet_data_dir(), "franka_panda", "panda.urdf"))


def ur10_urdf_path() -> str:
    return _existing(os.path.join(example_robot_data_share(), "example-robot-data", "robots",
                                  "ur_description", "urdf", "ur10_robot.urdf"))


def panda_spec(finger_opening: float = 0.04) -> ArmSpec:
    """The Panda arm to `panda_grasptarget` (0.105 m below the hand), fingers locked open."""
    return ArmSpec(
        name="panda", urdf_path=panda_urdf_path(), base_frame="panda_link0",
        tip_frame="panda_grasptarget", joint_names=PANDA_ARM_JOINTS,
        package_dirs=(os.path.join(pybullet_data_dir(), "franka_panda"),),
        locked_joints={j: finger_opening for j in PANDA_FINGER_JOINTS},
        home=PANDA_HOME)


def ur10_spec() -> ArmSpec:
    """The UR10 from its `world` link to `tool0` (the flange frame, where a tool mounts)."""
    return ArmSpec(
        name="ur10", urdf_path=ur10_urdf_path(), base_frame="world", tip_frame="tool0",
        joint_names=UR10_ARM_JOINTS, package_dirs=(example_robot_data_share(),),
        home=(0.0, -1.571, 1.571, -1.571, -1.571, 0.0))


def arm_spec(name: str) -> ArmSpec:
    """Look up a spec by robot name ('panda' or 'ur10')."""
    specs = {"panda": panda_spec, "ur10": ur10_spec}
    if name not in specs:
        raise ModelError(f"unknown robot '{name}'; known: {sorted(specs)}")
    return specs[name]()
