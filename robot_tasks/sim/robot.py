"""A robot arm loaded from a URDF into a World: joint maps, limits, state, poses.

The Robot knows nothing about how it is commanded; its `controller` (a
JointTrajectoryController over the arm joints) and optional `gripper` are attached by
the robot factories in `robot_tasks.sim.robots`.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Sequence

import numpy as np
import pybullet as p

from robot_tasks.sim.controller_switch import ControllerSwitch
from robot_tasks.sim.errors import UnknownName

if TYPE_CHECKING:  # pragma: no cover
    from robot_tasks.sim.world import World

_MOVABLE = (p.JOINT_REVOLUTE, p.JOINT_PRISMATIC)


@dataclass(frozen=True)
class JointLimit:
    """Limits from the URDF <limit> tag: position range, max effort, max velocity."""

    lower: float
    upper: float
    effort: float
    velocity: float


@dataclass(frozen=True)
class JointStates:
    """Measured joint states, in the order of `names` (like sensor_msgs/JointState).

    The lists are plain Python floats, ready to assign to a message without copies.
    """

    names: list
    position: list
    velocity: list
    effort: list

    def as_dict(self) -> dict:
        return dict(zip(self.names, self.position))


class Robot:
    """One articulated body of the world, with name/index maps and state accessors."""

    def __init__(self, world: "World", name: str, urdf_path: str, robot_description: str,
                 base_position: Sequence[float], base_orientation: Sequence[float],
                 arm_joint_names: Sequence[str], ee_link: str, home: dict | None = None,
                 inertia_from_file: bool = False):
        self.world = world
        self.name = name
        self.robot_description = robot_description
        cid = world.client
        # PyBullet recomputes link inertia tensors from the collision shapes unless told to
        # keep the URDF's; a model-based torque controller needs the URDF's (facts doc §8).
        flags = p.URDF_USE_INERTIA_FROM_FILE if inertia_from_file else 0
        self.body_id = p.loadURDF(str(urdf_path), list(base_position), list(base_orientation),
                                  useFixedBase=True, flags=flags, physicsClientId=cid)
        # The robot must never fall asleep: a sleeping body ignores new motor targets.
        p.changeDynamics(self.body_id, -1, activationState=p.ACTIVATION_STATE_DISABLE_SLEEPING,
                         physicsClientId=cid)
        self.joint_index: dict[str, int] = {}
        self.link_index_by_name: dict[str, int] = {}
        self.limits: dict[str, JointLimit] = {}
        for j in range(p.getNumJoints(self.body_id, physicsClientId=cid)):
            info = p.getJointInfo(self.body_id, j, physicsClientId=cid)
            joint_name, joint_type, link_name = info[1].decode(), info[2], info[12].decode()
            self.link_index_by_name[link_name] = j
            if joint_type in _MOVABLE:
                self.joint_index[joint_name] = j
                self.limits[joint_name] = JointLimit(info[8], info[9], info[10], info[11])
        self.joint_names: list[str] = list(self.joint_index)          # all movable, URDF order
        self._indices = [self.joint_index[n] for n in self.joint_names]
        for n in arm_joint_names:
            if n not in self.joint_index:
                raise UnknownName("joint", n, self.joint_index)
        self.arm_joint_names: list[str] = list(arm_joint_names)
        self.ee_link = ee_link
        self.ee_link_index = self.link_index(ee_link)
        self.home = dict(home or {})
        self.controller = None   # set by the factory: JointTrajectoryController
        self.controllers = ControllerSwitch(self)   # controller_manager's view: who drives the arm
        self.gripper = None      # ParallelGripper, SuctionGripper or None
        if self.home:
            self.reset_joints(self.home)

    # --- names and indices -------------------------------------------------------
    def link_index(self, link_name: str) -> int:
        """PyBullet link index of a URDF link (-1 for the base link)."""
        if link_name in self.link_index_by_name:
            return self.link_index_by_name[link_name]
        base = p.getBodyInfo(self.body_id, physicsClientId=self.world.client)[0].decode()
        if link_name == base:
            return -1
        raise UnknownName("link", link_name, self.link_index_by_name)

    def indices(self, names: Sequence[str]) -> list[int]:
        try:
            return [self.joint_index[n] for n in names]
        except KeyError as err:
            raise UnknownName("joint", err.args[0], self.joint_index) from None

    # --- state ---------------------------------------------------------------------
    def joint_states(self, names: Sequence[str] | None = None) -> JointStates:
        """Measured position/velocity/effort (applied motor torque or force) of joints.

        In torque mode (a compliant controller active) the arm joints' effort is the torque
        the controller applied this step.
        """
        names = self.joint_names if names is None else list(names)
        idx = self._indices if names is self.joint_names else self.indices(names)
        states = p.getJointStates(self.body_id, idx, physicsClientId=self.world.client)
        effort = [s[3] for s in states]
        torque_loop = self.controllers.current() if self.controllers is not None else None
        if torque_loop is not None:
            # PyBullet reports no effort for TORQUE_CONTROL joints: use the applied torques.
            applied = dict(zip(torque_loop.motors.joint_names, torque_loop.motors.applied))
            effort = [float(applied.get(n, e)) for n, e in zip(names, effort)]
        return JointStates(names, [s[0] for s in states], [s[1] for s in states], effort)

    def positions(self, names: Sequence[str] | None = None) -> np.ndarray:
        return np.array(self.joint_states(names).position)

    def reset_joints(self, positions: dict) -> None:
        """Teleport joints (no dynamics) and aim their motors there, e.g. to a home pose."""
        cid = self.world.client
        for name, q in positions.items():
            j = self.indices([name])[0]
            p.resetJointState(self.body_id, j, float(q), 0.0, physicsClientId=cid)
            p.setJointMotorControl2(self.body_id, j, p.POSITION_CONTROL, targetPosition=float(q),
                                    force=self.limits[name].effort, physicsClientId=cid)
        if self.controller is not None:
            self.controller.resync()

    # --- poses -----------------------------------------------------------------------
    def base_pose(self) -> tuple[tuple, tuple]:
        """(position xyz, orientation xyzw) of the URDF base link frame in the world.

        PyBullet reports the base's centre-of-mass frame; undo the URDF inertial offset so
        this matches what a kinematics library computes from robot_description.
        """
        cid = self.world.client
        com_pos, com_orn = p.getBasePositionAndOrientation(self.body_id, physicsClientId=cid)
        info = p.getDynamicsInfo(self.body_id, -1, physicsClientId=cid)
        inv_pos, inv_orn = p.invertTransform(info[3], info[4])
        return p.multiplyTransforms(com_pos, com_orn, inv_pos, inv_orn)

    def link_pose(self, link_name: str) -> tuple[tuple, tuple]:
        """World pose of a link frame (the URDF link frame, not its centre of mass)."""
        j = self.link_index(link_name)
        if j < 0:
            return self.base_pose()
        state = p.getLinkState(self.body_id, j, computeForwardKinematics=True,
                               physicsClientId=self.world.client)
        return state[4], state[5]

    def ee_pose(self) -> tuple[tuple, tuple]:
        """World pose of the end-effector link (panda_grasptarget / suction_tcp)."""
        return self.link_pose(self.ee_link)
