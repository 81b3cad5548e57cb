"""The frame tree of one robot: every URDF link's pose relative to its parent link.

A URDF is a tree of *links* (rigid bodies, each with its own coordinate frame) joined by
*joints*. A joint says where its child link sits in its parent link: a fixed offset
(`<origin>`) followed, for a movable joint, by a motion along or about its axis that
depends on the joint's position. This is exactly what tf2 (and so rviz2's RobotModel)
wants to hear, one transform per joint, parent link -> child link:

* a **fixed** joint's transform never changes: it goes out once, on /tf_static;
* a **movable** joint's transform changes with the joint position: it goes out with
  every joint_states message, on /tf.

This is robot_state_publisher's job, done here without ROS: the node that publishes the
transforms (robot_tasks.nodes.state_publisher) is a thin shell around this class.

    tree = FrameTree.from_urdf_string(urdf_xml, source="panda robot_description")
    tree.root_link                                   # "panda_link0"
    for t in tree.fixed_transforms(): ...            # FrameTransform(parent, child, pose)
    tree.set_positions(names, positions)             # a joint_states message
    for t in tree.moving_transforms(): ...

The poses are computed by Pinocchio's forward kinematics from the same URDF: each
joint's transform is parent_link^-1 * child_link of the placements in the root frame.
A joint that never got a position (and mimics no joint that did) is left out of
`moving_transforms`, as robot_state_publisher does: no pose is better than a made-up one.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import pinocchio as pin
from defusedxml import ElementTree

from .errors import ModelError
from .pose import Pose

FIXED = "fixed"
ONE_DOF = ("revolute", "prismatic", "continuous")


@dataclass(frozen=True)
class FrameTransform:
    """Where `child` sits in `parent` (both link names): tf2's parent -> child transform."""

    parent: str
    child: str
    pose: Pose


@dataclass(frozen=True)
class UrdfJoint:
    """One `<joint>` of the URDF: what it joins, and the joint it mimics, if any."""

    name: str
    kind: str                       # fixed | revolute | prismatic | continuous
    parent: str
    child: str
    mimic: tuple | None = None      # (mimicked joint, multiplier, offset)


def read_joints(urdf_xml: str, source: str) -> list[UrdfJoint]:
    """The joints of a URDF in file order. Raises ModelError naming `source`."""
    try:
        root = ElementTree.fromstring(urdf_xml)
    except ElementTree.ParseError as err:
        raise ModelError(f"{source}: not valid XML: {err}") from None
    if root.tag != "robot":
        raise ModelError(f"{source}: the root element is <{root.tag}>, not <robot>")
    joints = []
    for element in root.findall("joint"):
        name, kind = element.get("name"), element.get("type")
        parent, child = element.find("parent"), element.find("child")
        if not name or parent is None or child is None:
            raise ModelError(f"{source}: a <joint> lacks a name, <parent> or <child>")
        if kind != FIXED and kind not in ONE_DOF:
            raise ModelError(f"{source}: joint '{name}' is {kind}; only fixed, revolute, "
                             "prismatic and continuous joints are supported")
        mimic = element.find("mimic")
        mimicked = None if mimic is None else (mimic.get("joint"), float(mimic.get("multiplier", 1.0)),
                                                float(mimic.get("offset", 0.0)))
        joints.append(UrdfJoint(name, kind, parent.get("link"), child.get("link"), mimicked))
    return joints


class FrameTree:
    """Parent -> child link transforms of one URDF, for fixed joints and at given positions."""

    def __init__(self, model: pin.Model, joints: list[UrdfJoint], source: str = "<model>"):
        self.source = source
        self.model = model
        self.data = model.createData()
        self.joints = joints
        children = {j.child for j in joints}
        roots = [j.parent for j in joints if j.parent not in children]
        if len(set(roots)) != 1:
            raise ModelError(f"{source}: expected one root link, found {sorted(set(roots)) or 'none'}")
        self.root_link = roots[0]
        self._frame_id = {}
        for joint in joints:
            for link in (joint.parent, joint.child):
                if not model.existBodyName(link):
                    raise ModelError(f"{source}: link '{link}' is not in the kinematic model")
                self._frame_id[link] = model.getFrameId(link, pin.FrameType.BODY)
        self._moving = [j for j in joints if j.kind != FIXED]
        self._positions: dict[str, float] = {}
        # the Pinocchio coordinates of each movable joint: (index in q, continuous?)
        self._coordinates = {}
        for joint in self._moving:
            if not model.existJointName(joint.name):
                raise ModelError(f"{source}: joint '{joint.name}' is not in the kinematic model")
            pj = model.joints[model.getJointId(joint.name)]
            self._coordinates[joint.name] = (pj.idx_q, pj.nq == 2)
        self._q = pin.neutral(model)

    @classmethod
    def from_urdf_string(cls, urdf_xml: str, source: str = "robot_description") -> "FrameTree":
        joints = read_joints(urdf_xml, source)
        if not joints:
            raise ModelError(f"{source}: the URDF has no joints, so no frames to publish")
        try:
            model = pin.buildModelFromXML(urdf_xml)
        except (RuntimeError, ValueError) as err:
            raise ModelError(f"{source}: Pinocchio cannot read the URDF: {err}") from None
        return cls(model, joints, source)

    @property
    def links(self) -> list[str]:
        """Every link, root first, in URDF joint order."""
        return [self.root_link] + [j.child for j in self.joints]

    @property
    def movable_joint_names(self) -> list[str]:
        return [j.name for j in self._moving]

    def set_positions(self, names, positions) -> None:
        """Record joint positions (a joint_states message); names the tree lacks are ignored."""
        for name, value in zip(names, positions):
            if name in self._coordinates and math.isfinite(value):
                self._positions[name] = float(value)

    def _position_of(self, joint: UrdfJoint) -> float | None:
        value = self._positions.get(joint.name)
        if value is None and joint.mimic is not None:
            source, multiplier, offset = joint.mimic
            if source in self._positions:
                value = multiplier * self._positions[source] + offset
        return value

    def fixed_transforms(self) -> list[FrameTransform]:
        """One transform per fixed joint (constant: publish them once)."""
        fixed = [j for j in self.joints if j.kind == FIXED]
        return self._transforms(fixed, pin.neutral(self.model))

    def moving_transforms(self) -> list[FrameTransform]:
        """One transform per movable joint whose position is known."""
        q = self._q
        known = []
        for joint in self._moving:
            value = self._position_of(joint)
            if value is None:
                continue
            at, continuous = self._coordinates[joint.name]
            if continuous:
                q[at], q[at + 1] = math.cos(value), math.sin(value)
            else:
                q[at] = value
            known.append(joint)
        return self._transforms(known, q)

    def _transforms(self, joints: list[UrdfJoint], q: np.ndarray) -> list[FrameTransform]:
        if not joints:
            return []
        pin.framesForwardKinematics(self.model, self.data, q)
        placements = self.data.oMf
        out = []
        for joint in joints:
            relative = placements[self._frame_id[joint.parent]].actInv(placements[self._frame_id[joint.child]])
            out.append(FrameTransform(joint.parent, joint.child, Pose.from_se3(relative)))
        return out



def compose_frames(transforms, root: str, root_pose: Pose | None = None) -> dict[str, Pose]:
    """Pose in `root`'s parent of every frame reachable from `root` (a small tf2 lookup).

    `transforms` are FrameTransforms (parent -> child) in any order; `root_pose` is where
    `root` itself sits (identity by default). Frames not below `root` are left out.
    """
    below: dict[str, list[FrameTransform]] = {}
    for t in transforms:
        below.setdefault(t.parent, []).append(t)
    poses = {root: root_pose or Pose(np.zeros(3))}
    todo = [root]
    while todo:
        parent = todo.pop()
        parent_se3 = poses[parent].to_se3()
        for t in below.get(parent, ()):
            if t.child not in poses:
                poses[t.child] = Pose.from_se3(parent_se3 * t.pose.to_se3())
                todo.append(t.child)
    return poses
