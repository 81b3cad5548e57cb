"""Torque mode: an arm's position motors released, joint efforts applied every physics step.

PyBullet drives every joint with a velocity motor by default (it holds the joint still). To
command torques the motor must first be released — VELOCITY_CONTROL with zero force — and
then TORQUE_CONTROL torques set before *each* `stepSimulation()`; PyBullet does not keep a
torque from one step to the next. Commanded torques are clipped to the URDF effort limits,
as a real drive saturates.

PyBullet's `getJointStates` does not report the torque of a TORQUE_CONTROL joint, so the
applied (clipped) torques are kept here and are what the robot reports as measured effort.

`disturbance` is a torque the *environment* adds at the joints (a test's known external
torque): it moves the arm but is not part of the measured motor effort, so a controller
cannot see it except through the motion it causes.
"""
from __future__ import annotations

from typing import Sequence

import numpy as np
import pybullet as p


class TorqueMotors:
    """Torque-level access to some joints of a Robot (default: its arm joints)."""

    def __init__(self, robot, joint_names: Sequence[str] | None = None):
        self.robot = robot
        self.joint_names = list(joint_names or robot.arm_joint_names)
        self._idx = robot.indices(self.joint_names)
        self.effort_limits = np.array([robot.limits[n].effort for n in self.joint_names])
        self.engaged = False
        self.applied = np.zeros(len(self.joint_names))
        self.disturbance = np.zeros(len(self.joint_names))

    def release(self) -> None:
        """Switch the joints' velocity motors off so that torques act alone."""
        p.setJointMotorControlArray(self.robot.body_id, self._idx, p.VELOCITY_CONTROL,
                                    forces=[0.0] * len(self._idx),
                                    physicsClientId=self.robot.world.client)
        self.engaged = True
        self.applied = np.zeros(len(self._idx))

    def disengage(self) -> None:
        """Stop applying torques (the position controller takes the joints back)."""
        self.engaged = False
        self.applied = np.zeros(len(self._idx))

    def apply(self, torques) -> np.ndarray:
        """Clip to the effort limits and apply for the next physics step; return what is applied."""
        tau = np.clip(np.asarray(torques, float), -self.effort_limits, self.effort_limits)
        self.applied = tau
        p.setJointMotorControlArray(self.robot.body_id, self._idx, p.TORQUE_CONTROL,
                                    forces=(tau + self.disturbance).tolist(),
                                    physicsClientId=self.robot.world.client)
        return tau

    def read(self) -> tuple[np.ndarray, np.ndarray]:
        """Measured joint positions and velocities (the encoders)."""
        states = p.getJointStates(self.robot.body_id, self._idx,
                                  physicsClientId=self.robot.world.client)
        return np.array([s[0] for s in states]), np.array([s[1] for s in states])
