"""Message <-> library conversions for the arm server (ROS message types, no node logic)."""
from __future__ import annotations

from builtin_interfaces.msg import Duration
from geometry_msgs.msg import PoseStamped
from trajectory_msgs.msg import JointTrajectory, JointTrajectoryPoint

from robot_tasks.control import Pose, TimedTrajectory
from robot_tasks.control.planning_scene import ObstacleEntry


def duration_msg(seconds: float) -> Duration:
    whole = int(seconds)
    nanos = int(round((seconds - whole) * 1e9))
    if nanos >= 1_000_000_000:
        whole, nanos = whole + 1, nanos - 1_000_000_000
    return Duration(sec=whole, nanosec=nanos)


def trajectory_msg(traj: TimedTrajectory) -> JointTrajectory:
    """A whole JointTrajectory; header stamp 0 = "start on receipt" (as JTC reads it).
    Accelerations go out when the trajectory has them (the controller then interpolates
    with quintics, which keeps the acceleration continuous)."""
    msg = JointTrajectory()
    msg.joint_names = list(traj.joint_names)
    accelerations = traj.accelerations or [[] for _ in traj.positions]
    for q, v, a, t in zip(traj.positions, traj.velocities, accelerations, traj.time_from_start):
        point = JointTrajectoryPoint()
        point.positions = [float(x) for x in q]
        point.velocities = [float(x) for x in v]
        point.accelerations = [float(x) for x in a]
        point.time_from_start = duration_msg(float(t))
        msg.points.append(point)
    return msg


def goal_pose_parts(stamped: PoseStamped):
    """(frame_id, position list, quaternion xyzw list) of a PoseStamped, unchecked."""
    p, o = stamped.pose.position, stamped.pose.orientation
    return stamped.header.frame_id, [p.x, p.y, p.z], [o.x, o.y, o.z, o.w]


def pose_stamped(pose: Pose, frame_id: str, stamp=None) -> PoseStamped:
    msg = PoseStamped()
    msg.header.frame_id = frame_id
    if stamp is not None:
        msg.header.stamp = stamp
    p, o = msg.pose.position, msg.pose.orientation
    p.x, p.y, p.z = (float(v) for v in pose.position)
    o.x, o.y, o.z, o.w = (float(v) for v in pose.quaternion)
    return msg


def obstacle_entries(msg) -> list:
    """An ObjectStateArray's objects as ObstacleEntry (name, pose, size), unchecked."""
    entries = []
    for obj in msg.objects:
        p, o, size = obj.pose.position, obj.pose.orientation, obj.size
        entries.append(ObstacleEntry(obj.name, (p.x, p.y, p.z), (o.x, o.y, o.z, o.w),
                                     (size.x, size.y, size.z)))
    return entries
