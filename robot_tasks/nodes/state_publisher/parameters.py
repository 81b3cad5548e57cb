"""The state_publisher's parameters, declared once with their defaults and checks.

| parameter     | default                          | meaning                                         |
|---------------|----------------------------------|-------------------------------------------------|
| robots        | [panda]                          | robot namespaces: <ns>/robot_description, <ns>/joint_states; frame prefix <ns>/ |
| base_poses    | [0, 0, 0.625, 0, 0, 0, 1]        | 7 per robot (x y z qx qy qz qw): its root link in `world_frame` |
| world_frame   | world                            | the fixed frame everything hangs from           |
| camera_frame  | camera_optical_frame             | child frame of `camera/pose` ("" = no camera frame) |
| objects       | true                             | world -> <object> frames from the sim's `objects` topic |
"""
from __future__ import annotations

from dataclasses import dataclass

from robot_tasks.control.errors import InputError
from robot_tasks.control.pose import Pose
from robot_tasks.control.robot_defaults import robot_defaults
from robot_tasks.ros.parameters import ParameterError, declare


@dataclass(frozen=True)
class RobotFrames:
    namespace: str          # topics <namespace>/robot_description, <namespace>/joint_states
    frame_prefix: str       # "<namespace>/"
    base_pose: Pose         # root link in the world frame


@dataclass(frozen=True)
class StatePublisherConfig:
    robots: list
    world_frame: str
    camera_frame: str
    objects: bool


def declare_state_publisher_parameters(node) -> StatePublisherConfig:
    namespaces = declare(node, "robots", ["panda"], "robot namespaces (frame prefix <ns>/)")
    namespaces = [ns.strip("/") for ns in namespaces]
    if not namespaces or not all(namespaces) or len(set(namespaces)) != len(namespaces):
        raise ParameterError("robots", f"must name distinct, non-empty namespaces, got {namespaces}",
                             node=node.get_name())
    flat = declare(node, "base_poses", robot_defaults("panda")["world_T_base"],
                   "7 per robot: root link pose in world_frame, x y z qx qy qz qw")
    if len(flat) != 7 * len(namespaces):
        raise ParameterError("base_poses", f"must have 7 numbers per robot ({7 * len(namespaces)} for "
                             f"{namespaces}), got {len(flat)}", node=node.get_name())
    robots = []
    for k, ns in enumerate(namespaces):
        try:
            pose = Pose(flat[7 * k:7 * k + 3], flat[7 * k + 3:7 * k + 7])
        except InputError as err:
            raise ParameterError("base_poses", f"robot {ns}: {err}", node=node.get_name()) from None
        robots.append(RobotFrames(ns, f"{ns}/", pose))
    return StatePublisherConfig(
        robots=robots,
        world_frame=declare(node, "world_frame", "world", "the fixed frame", allow_empty=False),
        camera_frame=declare(node, "camera_frame", "camera_optical_frame",
                             "child frame of camera/pose (\"\" = none)"),
        objects=declare(node, "objects", True, "frames of the sim's ground-truth objects"))
