"""ToolPoseFromJointStates: the tool pose in the world frame, by forward kinematics.

Drop detection needs to know where the gripper is *while* it moves. The robot
publishes `joint_states` and a latched `robot_description` (both real-driver topics),
so the tree copies them to the blackboard (TopicToBlackboard) and this leaf computes
the tool pose with Pinocchio (robot_tasks.control.ArmKinematics), the same way the
arm server does. The arm's base pose in the world frame is a port (it is not in the
URDF), as it is a parameter of the arm server.

The kinematics is built once per URDF text and cached (building takes ~50 ms; one
FK ~20 us).
"""
from __future__ import annotations

import math

from robot_tasks.bt import InputPort, NodeStatus, OutputPort, SyncActionNode
from robot_tasks.bt.errors import BehaviorTreeError
from robot_tasks.robots import PANDA_ARM_JOINTS

from .world_view import field_of, stamp_seconds

_CACHE: dict[tuple, object] = {}


def _kinematics(urdf: str, tip_frame: str, joint_names: tuple):
    key = (hash(urdf), len(urdf), tip_frame, joint_names)
    kin = _CACHE.get(key)
    if kin is None:
        from robot_tasks.control import ArmKinematics  # pinocchio: imported only when used

        kin = ArmKinematics.from_urdf_string(urdf, tip_frame, joint_names)
        _CACHE.clear()  # one robot per process is the normal case; don't grow without bound
        _CACHE[key] = kin
    return kin


def tool_pose_from_joints(urdf: str, names, positions, joint_names, tip_frame: str,
                          base_position=(0.0, 0.0, 0.0)) -> dict:
    """World-frame tool pose dict {x, y, z, qx, qy, qz, qw, frame_id} (base not rotated)."""
    by_name = dict(zip(names, positions))
    missing = [n for n in joint_names if n not in by_name]
    if missing:
        raise ValueError(f"joint_states lacks {', '.join(missing)}")
    q = [float(by_name[n]) for n in joint_names]
    if not all(math.isfinite(v) for v in q):
        raise ValueError(f"joint_states has non-finite positions {q}")
    pose = _kinematics(urdf, tip_frame, tuple(joint_names)).fk(q)
    x, y, z = (float(v) for v in pose.position)
    qx, qy, qz, qw = (float(v) for v in pose.quaternion)
    return {"x": x + base_position[0], "y": y + base_position[1], "z": z + base_position[2],
            "qx": qx, "qy": qy, "qz": qz, "qw": qw, "frame_id": "world"}


class ToolPoseFromJointStates(SyncActionNode):
    """Forward kinematics of `joint_states` on `robot_description` -> `ee_pose` (world frame)."""

    @staticmethod
    def provided_ports():
        return [InputPort("joint_states", description="sensor_msgs/JointState (dict or message)"),
                InputPort("robot_description", str, description="URDF text"),
                InputPort("tip_frame", str, default="panda_grasptarget", description="tool frame"),
                InputPort("joint_names", str, default=";".join(PANDA_ARM_JOINTS),
                          description="arm joints, ';'-separated"),
                InputPort("base_position", str, default="0;0;0",
                          description="'x;y;z' of the URDF root in the world frame"),
                OutputPort("ee_pose", description="tool pose {x,y,z,qx,qy,qz,qw,frame_id}")]

    def tick(self):
        states = self.get_input("joint_states", default=None)
        urdf = self.get_input("robot_description", default=None)
        if states is None or not urdf:
            return NodeStatus.FAILURE
        try:
            base = [float(v) for v in self.get_input("base_position").split(";") if v.strip()]
            if len(base) != 3:
                raise ValueError("base_position needs 'x;y;z'")
            joints = tuple(j.strip() for j in self.get_input("joint_names").split(";") if j.strip())
            pose = tool_pose_from_joints(urdf, list(field_of(states, "name") or []),
                                         list(field_of(states, "position") or []), joints,
                                         self.get_input("tip_frame"), base)
        except Exception as exc:  # ModelError, ValueError: name the node, don't crash the executor
            raise BehaviorTreeError(f"node '{self.full_path}': {exc}") from None
        stamp = stamp_seconds(field_of(field_of(states, "header") or {}, "stamp"))
        if stamp:
            pose["stamp"] = stamp  # joint_states time: lets checks match it with image times
        self.set_output("ee_pose", pose)
        return NodeStatus.SUCCESS
