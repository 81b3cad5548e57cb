"""Per-robot defaults of the arm and gripper servers, and obstacle parsing (pure: no ROS).

`robot:=panda` or `robot:=ur10` picks the defaults below; every one of them can be
overridden by its own parameter (see config/panda_arm.yaml, config/ur10_arm.yaml).
The scene-level values (where the base stands, which boxes to avoid) match the sim's
franka_stacking and ur10_palletizing scenes; a real cell sets its own.

Obstacles are three parallel parameter lists (ROS parameters cannot nest):
    obstacle_names: [table]
    obstacle_sizes: [1.5, 1.0, 0.05]          # 3 per box: full edge lengths, m
    obstacle_poses: [0.5, 0.0, 0.6, 0, 0, 0, 1]  # 7 per box: x y z qx qy qz qw, world frame
"""
from __future__ import annotations

import math

from robot_tasks.control import Box, Pose
from robot_tasks.control.errors import InputError
from robot_tasks.control.motion_request import FrameMap
from robot_tasks.robots import PANDA_ARM_JOINTS, TABLE_TOP_Z, UR10_ARM_JOINTS

ROBOT_DEFAULTS = {
    "panda": {
        "joint_names": list(PANDA_ARM_JOINTS),
        "base_frame": "panda_link0",
        "tip_frame": "panda_grasptarget",
        "world_T_base": [0.0, 0.0, TABLE_TOP_Z, 0.0, 0.0, 0.0, 1.0],   # on the table top
        "obstacle_names": ["table"],
        "obstacle_sizes": [1.5, 1.0, 0.05],
        "obstacle_poses": [0.5, 0.0, 0.6, 0.0, 0.0, 0.0, 1.0],
        # gripper_server
        "gripper_type": "parallel",
        "finger_joints": ["panda_finger_joint1", "panda_finger_joint2"],
        "max_width": 0.08,
    },
    "ur10": {
        "joint_names": list(UR10_ARM_JOINTS),
        "base_frame": "base_link",
        "tip_frame": "suction_tcp",
        "world_T_base": [0.0, 0.0, 0.5, 0.0, 0.0, 0.0, 1.0],     # on a 0.5 m pedestal
        "obstacle_names": ["pallet", "conveyor", "floor"],
        "obstacle_sizes": [1.0, 0.7, 0.14, 2.07, 0.4, 0.55, 4.0, 4.0, 0.02],
        "obstacle_poses": [0.0, -0.8, 0.07, 0.0, 0.0, 0.0, 1.0,
                           -0.565, 0.8, 0.275, 0.0, 0.0, 0.0, 1.0,
                           0.0, 0.0, -0.011, 0.0, 0.0, 0.0, 1.0],
        "gripper_type": "suction",
        "finger_joints": [],
        "max_width": 0.0,
    },
}


class SettingsError(InputError):
    """A parameter value cannot be used; the message names the parameter."""


def robot_defaults(robot: str) -> dict:
    if robot not in ROBOT_DEFAULTS:
        raise SettingsError(f"parameter 'robot': unknown robot '{robot}'; "
                            f"known: {sorted(ROBOT_DEFAULTS)}")
    return ROBOT_DEFAULTS[robot]


def pose_from_list(values, name: str) -> Pose:
    """[x, y, z, qx, qy, qz, qw] -> Pose; SettingsError naming `name` if malformed."""
    values = list(values)
    if len(values) != 7 or not all(math.isfinite(float(v)) for v in values):
        raise SettingsError(f"parameter '{name}': expected 7 finite numbers "
                            f"[x, y, z, qx, qy, qz, qw], got {values}")
    try:
        return Pose(values[:3], values[3:])
    except ValueError as exc:
        raise SettingsError(f"parameter '{name}': {exc}") from None


def obstacles_in_base(names, sizes, poses, frames: FrameMap) -> list:
    """Boxes given in the world frame (parallel lists, see the module doc) -> Boxes in the
    base frame, ready for CollisionChecker."""
    names, sizes, poses = list(names), list(sizes), list(poses)
    if len(sizes) != 3 * len(names) or len(poses) != 7 * len(names):
        raise SettingsError(f"obstacles: {len(names)} names need {3 * len(names)} "
                            f"obstacle_sizes and {7 * len(names)} obstacle_poses values, "
                            f"got {len(sizes)} and {len(poses)}")
    boxes = []
    for i, name in enumerate(names):
        world_pose = pose_from_list(poses[7 * i:7 * i + 7], f"obstacle_poses[{name}]")
        try:
            boxes.append(Box(name, tuple(sizes[3 * i:3 * i + 3]),
                             frames.to_base(world_pose, "world")))
        except ValueError as exc:
            raise SettingsError(f"obstacle '{name}': {exc}") from None
    return boxes
