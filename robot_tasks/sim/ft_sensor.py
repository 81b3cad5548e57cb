"""A six-axis force/torque sensor in a fixed joint of the robot (e.g. flange -> hand).

PyBullet measures the reaction wrench of a joint once `enableJointForceTorqueSensor` is on.
Measured here (pybullet 3.2.7, Panda `panda_hand_joint`): the reading is the force and
moment the *parent* link applies to the child side, in the axes of the child link's
centre-of-mass (inertial) frame and about its centre of mass — not about the joint origin
(test_ft_sensor.py pushes the hand at two points to tell them apart). At rest it holds the
tool up against its weight.

A real F/T sensor is used the same way: it reads the tool's weight as well as the contact,
so it is *tared* (zeroed) while the tool touches nothing, and the contact wrench is the
change since the tare. `contact_wrench()` turns a reading into the convention of the
controllers (robot_tasks.control.compliance.state): the wrench the tool exerts on the
environment, in the robot's base axes, moments about a tool point (the TCP):

    w_tool→env = R (reading − tare)       forces;  moments moved from the sensor to the TCP:
    m_tcp      = m_sensor − (r_tcp − r_sensor) × f

The tare is valid while the tool keeps its orientation (gravity is fixed in the world) and
moves slowly (the tool's inertial forces are not removed): a tare taken while the arm
accelerates keeps the hand's m·a as a bias (measured: 0.7 N when taken in the first step of
a 10 N press), so tare while the arm is held still.

Measured accuracy (test_ft_sensor.py): a force on the hand, or on the closed fingertips
along the hand's axis, reads back within 0.01-0.02 N, except along the fingers' sliding axis:
there a push on the hand reads up to ~3 % off (0.09 N of 3 N), because PyBullet's gear
constraint that couples the two fingers (grippers.py, as the hand's mechanism couples them)
acts on the two finger joints, and a coupling force that the real mechanism keeps inside the
hand leaks into the reaction here. A force on the fingers along their sliding axis (carried
by the finger motors and limits) reads ~9 % off: PyBullet's reaction of a fixed joint does
not see all of the child joints' motor impulses.
"""
from __future__ import annotations

import numpy as np
import pybullet as p

from robot_tasks.sim.errors import UnknownName


class ForceTorqueSensor:
    """The reaction wrench in `joint_name` (a fixed joint), with tare and TCP transform."""

    def __init__(self, robot, joint_name: str, tcp_link: str | None = None):
        self.robot = robot
        self.joint_name = joint_name
        cid = robot.world.client
        infos = [p.getJointInfo(robot.body_id, j, physicsClientId=cid)
                 for j in range(p.getNumJoints(robot.body_id, physicsClientId=cid))]
        found = [info for info in infos if info[1].decode() == joint_name]
        if not found:
            raise UnknownName("joint", joint_name, [info[1].decode() for info in infos])
        self.joint_index = found[0][0]            # PyBullet: joint j carries link j
        self.sensor_link = found[0][12].decode()  # the child link (its COM frame: the reading's)
        self.tcp_link = tcp_link or robot.ee_link
        p.enableJointForceTorqueSensor(robot.body_id, self.joint_index, True, physicsClientId=cid)
        self.bias = np.zeros(6)

    def reading(self) -> np.ndarray:
        """Raw reaction wrench (parent on child) in the child link frame, about the joint."""
        state = p.getJointState(self.robot.body_id, self.joint_index,
                                physicsClientId=self.robot.world.client)
        return np.array(state[2], float)

    def tare(self) -> None:
        """Zero the sensor now (the tool must touch nothing)."""
        self.bias = self.reading()

    def contact_wrench(self) -> np.ndarray:
        """Tool-on-environment wrench since the tare, base axes, moment about the TCP."""
        robot = self.robot
        state = p.getLinkState(robot.body_id, self.joint_index, computeForwardKinematics=True,
                               physicsClientId=robot.world.client)
        sensor_pos, sensor_orn = state[0], state[1]        # the child's centre-of-mass frame
        rot_world = np.array(p.getMatrixFromQuaternion(sensor_orn)).reshape(3, 3)
        _, base_orn = robot.base_pose()
        base_rot = np.array(p.getMatrixFromQuaternion(base_orn)).reshape(3, 3)
        rot = base_rot.T @ rot_world                              # sensor axes -> base axes
        delta = self.reading() - self.bias
        force, moment = rot @ delta[:3], rot @ delta[3:]
        lever = base_rot.T @ (np.array(robot.link_pose(self.tcp_link)[0]) - np.array(sensor_pos))
        return np.concatenate([force, moment - np.cross(lever, force)])
