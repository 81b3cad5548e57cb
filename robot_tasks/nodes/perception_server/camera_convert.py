"""Where the camera is and how it projects: ROS messages/parameters -> perception types.

There is no tf2 here, so the camera's pose in the world comes either from a
geometry_msgs/PoseStamped topic (the sim publishes `camera/pose`, latched) or from the
node parameter `camera_pose` = [x, y, z, qx, qy, qz, qw]. Both describe the *optical*
frame (x right, y down, z forward) in the world frame.
"""
from __future__ import annotations

import math

import numpy as np

from robot_tasks.perception import CameraIntrinsics, PerceptionInputError, pose_from_position_quaternion
from robot_tasks.ros.errors import RosError


class CameraModelError(RosError, ValueError):
    """A CameraInfo, pose message or pose parameter that perception cannot use."""


def intrinsics_from_camera_info(msg) -> CameraIntrinsics:
    """sensor_msgs/CameraInfo -> CameraIntrinsics (from K, which describes image_raw).

    Distortion is not undone: the images are used as they come (the sim has none).
    """
    k = [float(v) for v in msg.k]
    if len(k) != 9 or not all(math.isfinite(v) for v in k) or k[0] == 0.0 or k[4] == 0.0:
        raise CameraModelError(f"camera_info: K must hold 9 finite values with fx, fy != 0 "
                               f"(an uncalibrated camera sends zeros), got {k}")
    try:
        return CameraIntrinsics.from_k(k, int(msg.width), int(msg.height))
    except PerceptionInputError as err:
        raise CameraModelError(f"camera_info: {err}") from err


def pose_matrix_from_pose_stamped(msg, world_frame: str) -> np.ndarray:
    """geometry_msgs/PoseStamped of the optical frame -> 4x4 world_T_camera.

    Its header.frame_id must be `world_frame` (or empty, read as `world_frame`): without
    tf2 there is no way to chain other frames.
    """
    frame = msg.header.frame_id.lstrip("/")
    if frame not in ("", world_frame):
        raise CameraModelError(f"camera pose: header.frame_id is {msg.header.frame_id!r}, expected "
                               f"{world_frame!r} (no tf2 here: publish the optical frame in the world)")
    p, q = msg.pose.position, msg.pose.orientation
    return pose_from_list([p.x, p.y, p.z, q.x, q.y, q.z, q.w], "camera pose topic")


def pose_from_list(values, what: str = "parameter 'camera_pose'") -> np.ndarray:
    """[x, y, z, qx, qy, qz, qw] -> 4x4 world_T_camera (the quaternion is normalised)."""
    values = list(values)
    if len(values) != 7:
        raise CameraModelError(f"{what}: expected 7 numbers [x, y, z, qx, qy, qz, qw], got {len(values)}")
    try:
        floats = [float(v) for v in values]
        return pose_from_position_quaternion(floats[:3], floats[3:])
    except (TypeError, ValueError) as err:   # PerceptionInputError is a ValueError
        raise CameraModelError(f"{what}: {err}") from err
