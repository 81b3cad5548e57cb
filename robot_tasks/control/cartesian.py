"""Straight-line Cartesian paths by repeated IK, each solve seeded with the previous solution.

    result = cartesian_line(kin, q_start, goal_position=[x, y, z - 0.2])   # straight down
    if result.success: send(interpolate_path(result.path))

The tip moves along the segment from its current position to the goal in steps of at most
`step` metres, holding the start orientation (or slerping to `goal_orientation`). Every
waypoint must solve (IK from the previous waypoint, no random restarts: a restart would
jump to another arm configuration) and no joint may jump more than `max_joint_jump`
between waypoints; otherwise the result fails and says at which fraction of the line.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, replace

import numpy as np
import pinocchio as pin

from .errors import InputError
from .ik import IkConfig, IkSolver
from .kinematics import ArmKinematics
from .pose import Pose, as_vector


@dataclass
class CartesianResult:
    """`path` holds the joint waypoints solved so far (row 0 is q_start); `poses` their
    targets. On failure `failed_fraction` tells how far along the line it got (0..1)."""

    success: bool
    path: np.ndarray
    poses: list
    reason: str
    failed_fraction: float | None = None


def _slerp(q0: np.ndarray, q1: np.ndarray, t: float) -> np.ndarray:
    a = pin.Quaternion(q0[3], q0[0], q0[1], q0[2])
    b = pin.Quaternion(q1[3], q1[0], q1[1], q1[2])
    return a.slerp(t, b).coeffs().copy()


def cartesian_line(kin: ArmKinematics, q_start, goal_position, goal_orientation=None,
                   step: float = 0.005, max_joint_jump: float = 0.1,
                   ik_config: IkConfig | None = None) -> CartesianResult:
    """Joint waypoints that carry the tip along a straight line to goal_position.

    `goal_orientation` (quaternion xyzw) defaults to the start orientation. `step` is the
    largest Cartesian distance between consecutive waypoints (m); `max_joint_jump` the
    largest joint change allowed between them (rad).
    """
    q0 = kin.clamp(kin.check_q(q_start, "q_start"))
    goal = as_vector(goal_position, 3, "goal_position")
    for name, value in (("step", step), ("max_joint_jump", max_joint_jump)):
        if not (isinstance(value, (int, float)) and math.isfinite(value) and value > 0):
            raise InputError(f"{name} must be a positive number, got {value!r}")
    start = kin.fk(q0)
    end_quat = start.quaternion if goal_orientation is None else \
        Pose(goal, goal_orientation).quaternion
    if float(np.dot(start.quaternion, end_quat)) < 0:
        end_quat = -end_quat  # shortest way round
    length = float(np.linalg.norm(goal - start.position))
    angle = 2.0 * math.acos(min(1.0, abs(float(np.dot(start.quaternion, end_quat)))))
    # Rotation also needs small steps: count 0.1 m of travel per radian of turn.
    n = max(1, int(math.ceil(max(length, 0.1 * angle) / step)))
    base = ik_config or IkConfig(method="dls")
    solver = IkSolver(kin, replace(base, restarts=0))
    path, poses, q = [q0], [start], q0
    for i in range(1, n + 1):
        t = i / n
        target = Pose(start.position + t * (goal - start.position),
                      _slerp(start.quaternion, end_quat, t))
        result = solver.solve(target, q)
        if not result.success:
            return CartesianResult(False, np.array(path), poses,
                                   f"IK failed at {t:.0%} of the line ({result.reason})", t)
        jump = float(np.max(np.abs(result.q - q)))
        if jump > max_joint_jump:
            return CartesianResult(False, np.array(path), poses,
                                   f"joint jump of {jump:.3f} rad > {max_joint_jump} rad at "
                                   f"{t:.0%} of the line (passing a singularity?)", t)
        q = result.q
        path.append(q)
        poses.append(target)
    return CartesianResult(True, np.array(path), poses, "ok")


def vertical_move(kin: ArmKinematics, q_start, dz: float, **kwargs) -> CartesianResult:
    """Move the tip straight up (dz > 0) or down (dz < 0) keeping x, y and orientation."""
    start = kin.fk(kin.check_q(q_start, "q_start"))
    if not math.isfinite(dz):
        raise InputError(f"dz must be finite, got {dz!r}")
    return cartesian_line(kin, q_start, start.position + np.array([0.0, 0.0, dz]), **kwargs)
