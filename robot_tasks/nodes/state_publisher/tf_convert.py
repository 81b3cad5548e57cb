"""Library values <-> geometry_msgs/TransformStamped, the element of a TFMessage.

A TransformStamped says: at `header.stamp`, frame `child_frame_id` sits at
`transform` in frame `header.frame_id` (its parent).
"""
from __future__ import annotations

from geometry_msgs.msg import TransformStamped

from robot_tasks.control.frame_tree import FrameTransform
from robot_tasks.control.pose import Pose


def transform_stamped(parent: str, child: str, pose: Pose, stamp) -> TransformStamped:
    """`stamp` is a builtin_interfaces/Time (copied)."""
    msg = TransformStamped()
    msg.header.stamp.sec, msg.header.stamp.nanosec = stamp.sec, stamp.nanosec
    msg.header.frame_id, msg.child_frame_id = parent, child
    t, r = msg.transform.translation, msg.transform.rotation
    t.x, t.y, t.z = (float(v) for v in pose.position)
    r.x, r.y, r.z, r.w = (float(v) for v in pose.quaternion)
    return msg


def pose_of(position, orientation) -> Pose:
    """geometry_msgs Point + Quaternion -> Pose."""
    return Pose([position.x, position.y, position.z], [orientation.x, orientation.y, orientation.z, orientation.w])


def frame_transform(msg: TransformStamped) -> FrameTransform:
    """The other way: a received transform as parent -> child FrameTransform."""
    return FrameTransform(msg.header.frame_id, msg.child_frame_id,
                          pose_of(msg.transform.translation, msg.transform.rotation))
