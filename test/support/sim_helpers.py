"""Scripted motion for the physics tests: a Cartesian mover built on PyBullet's IK.

PyBullet IK is used here only to script the tests; the real arm server computes
kinematics with Pinocchio from robot_description.
"""
from __future__ import annotations

import math

import numpy as np
import pybullet as p

from robot_tasks.sim import JointTrajectory, TrajectoryPoint

DOWN = p.getQuaternionFromEuler([math.pi, 0.0, 0.0])


def ik(robot, position, orientation=DOWN) -> list[float]:
    """Arm joint positions putting the robot's end effector at the pose (test-only IK)."""
    cid, body = robot.world.client, robot.body_id
    names = robot.joint_names
    lower = [robot.limits[n].lower for n in names]
    upper = [robot.limits[n].upper for n in names]
    ranges = [u - lo for lo, u in zip(lower, upper)]
    rest = [robot.home.get(n, 0.0) for n in names]
    q = p.calculateInverseKinematics(body, robot.ee_link_index, list(position), list(orientation),
                                     lowerLimits=lower, upperLimits=upper, jointRanges=ranges,
                                     restPoses=rest, maxNumIterations=100, residualThreshold=1e-5,
                                     physicsClientId=cid)
    order = {n: i for i, n in enumerate(names)}
    return [q[order[n]] for n in robot.arm_joint_names]


def move_joints(world, robot, q, duration: float = 1.5, settle: float = 0.3) -> None:
    """Send one two-point trajectory to q and run until it ends (plus settle time)."""
    robot.controller.command(JointTrajectory(robot.arm_joint_names, [TrajectoryPoint(list(q), duration)]))
    world.step(int((duration + settle) / world.time_step))


def move_line(world, robot, start, goal, duration: float, orientation=DOWN, n: int = 10) -> None:
    """Straight-line Cartesian move as one trajectory of n IK points."""
    pts = []
    for k in range(1, n + 1):
        s = k / n
        target = np.asarray(start) + s * (np.asarray(goal) - np.asarray(start))
        pts.append(TrajectoryPoint(ik(robot, target, orientation), duration * s))
    robot.controller.command(JointTrajectory(robot.arm_joint_names, pts))
    world.step(int((duration + 0.3) / world.time_step))


def move_to(world, robot, position, duration: float = 1.5, orientation=DOWN) -> None:
    """Straight-line Cartesian move from the current EE position to `position`."""
    start = robot.ee_pose()[0]
    move_line(world, robot, start, position, duration, orientation)
