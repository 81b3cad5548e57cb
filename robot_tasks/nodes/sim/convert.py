"""Conversions between robot_tasks.sim values and ROS messages (no node, no publishing).

Times: ROS stamps carry the sim node's clock (the `/clock` it publishes), in seconds as
floats here.  Poses are in the "world" frame; quaternions are (x, y, z, w) both sides.
"""
from __future__ import annotations

import math

from geometry_msgs.msg import Pose, PoseStamped
from sensor_msgs.msg import CameraInfo, Image
from visualization_msgs.msg import Marker

from robot_tasks.sim.trajectory import JointTrajectory, TrajectoryPoint

WORLD_FRAME = "world"


# --- time --------------------------------------------------------------------------
def set_stamp(stamp, seconds: float) -> None:
    """Write `seconds` into a builtin_interfaces/Time in place (no new message)."""
    sec = math.floor(seconds)
    stamp.sec = int(sec)
    stamp.nanosec = min(int(round((seconds - sec) * 1e9)), 999_999_999)


def stamp_seconds(stamp) -> float:
    """builtin_interfaces/Time or Duration -> seconds."""
    return stamp.sec + stamp.nanosec * 1e-9


# --- commands in -------------------------------------------------------------------
def trajectory_from_msg(msg) -> JointTrajectory:
    """trajectory_msgs/JointTrajectory -> the sim controller's JointTrajectory.

    Only the shape changes; the controller validates names, numbers, limits and times
    (and its CommandRejected.reason names the offending point and field).
    """
    points = [TrajectoryPoint(positions=pt.positions, time_from_start=stamp_seconds(pt.time_from_start),
                              velocities=pt.velocities, accelerations=pt.accelerations)
              for pt in msg.points]
    return JointTrajectory(list(msg.joint_names), points)


# --- ground truth out ----------------------------------------------------------------
def fill_pose(pose: Pose, position, orientation) -> Pose:
    pose.position.x, pose.position.y, pose.position.z = (float(v) for v in position)
    o = pose.orientation
    o.x, o.y, o.z, o.w = (float(v) for v in orientation)
    return pose


def object_marker(state, marker_id: int, rgba, stamp) -> Marker:
    """A box marker the size of the object's extents, in the object's colour."""
    m = Marker(ns="objects", id=marker_id, type=Marker.CUBE, action=Marker.ADD)
    m.header.frame_id = WORLD_FRAME
    m.header.stamp = stamp
    fill_pose(m.pose, state.position, state.orientation)
    m.scale.x, m.scale.y, m.scale.z = (max(float(v), 1e-3) for v in state.size)
    m.color.r, m.color.g, m.color.b, m.color.a = (float(v) for v in rgba)
    m.text = state.name
    return m


def delete_all_marker() -> Marker:
    """Clears this publisher's markers (sent once after a reset: the object set may shrink)."""
    m = Marker(ns="objects", action=Marker.DELETEALL)
    m.header.frame_id = WORLD_FRAME
    return m


# --- camera out ----------------------------------------------------------------------
def rgb_image(rgb, frame_id: str) -> Image:
    """(H, W, 3) uint8 array -> sensor_msgs/Image rgb8 (stamp left to the caller)."""
    h, w = rgb.shape[:2]
    msg = Image(height=h, width=w, encoding="rgb8", is_bigendian=0, step=w * 3)
    msg.header.frame_id = frame_id
    msg.data = rgb.tobytes()
    return msg


def depth_image(depth, frame_id: str) -> Image:
    """(H, W) float32 metres -> sensor_msgs/Image 32FC1 (little-endian)."""
    h, w = depth.shape[:2]
    msg = Image(height=h, width=w, encoding="32FC1", is_bigendian=0, step=w * 4)
    msg.header.frame_id = frame_id
    msg.data = depth.astype("<f4", copy=False).tobytes()
    return msg


def camera_info(intrinsics, frame_id: str) -> CameraInfo:
    """Pinhole CameraInfo: K, P (no stereo baseline), R = identity, no distortion."""
    k = intrinsics
    msg = CameraInfo(width=k.width, height=k.height, distortion_model="plumb_bob")
    msg.header.frame_id = frame_id
    msg.d = [0.0] * 5
    msg.k = [k.fx, 0.0, k.cx, 0.0, k.fy, k.cy, 0.0, 0.0, 1.0]
    msg.r = [1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0]
    msg.p = [k.fx, 0.0, k.cx, 0.0, 0.0, k.fy, k.cy, 0.0, 0.0, 0.0, 1.0, 0.0]
    return msg


def pose_stamped(position, orientation, frame_id: str = WORLD_FRAME) -> PoseStamped:
    msg = PoseStamped()
    msg.header.frame_id = frame_id
    fill_pose(msg.pose, position, orientation)
    return msg
