"""Joint trajectories and their interpolation (pure numpy, no PyBullet).

Interpolation follows ros2_control's joint_trajectory_controller, chosen per
trajectory from what the points carry:

* positions only                     -> linear between points (velocity = slope);
* positions + velocities             -> cubic Hermite (matches both ends' p and v);
* positions + velocities + accels    -> quintic (matches p, v and a).

Linear is the positions-only choice because the arm server sends densely sampled,
bounded-increment points; a spline through such points would only add overshoot.
The first segment starts from the controller's current command at t=0, so a new
trajectory continues smoothly from wherever the previous one was.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Sequence

import numpy as np


@dataclass
class TrajectoryPoint:
    """One waypoint, like trajectory_msgs/JointTrajectoryPoint (time in seconds)."""

    positions: Sequence[float]
    time_from_start: float
    velocities: Sequence[float] = ()
    accelerations: Sequence[float] = ()


@dataclass
class JointTrajectory:
    """A whole trajectory, like trajectory_msgs/JointTrajectory."""

    joint_names: Sequence[str]
    points: Sequence[TrajectoryPoint] = field(default_factory=list)


class Interpolator:
    """Samples a validated trajectory at any time t >= 0 (clamped at the end).

    `times` start with 0 (the start state) and strictly increase; arrays are
    (n_points, n_joints).  `velocities`/`accelerations` may be None.
    """

    def __init__(self, times, positions, velocities=None, accelerations=None):
        self.times = np.asarray(times, float)
        self.pos = np.asarray(positions, float)
        self.vel = None if velocities is None else np.asarray(velocities, float)
        self.acc = None if accelerations is None else np.asarray(accelerations, float)
        if self.vel is None:
            self.mode = "linear"
        elif self.acc is None:
            self.mode = "cubic"
        else:
            self.mode = "quintic"

    @property
    def duration(self) -> float:
        return float(self.times[-1])

    def sample(self, t: float) -> tuple[np.ndarray, np.ndarray]:
        """(positions, velocities) at time t since the trajectory start."""
        times = self.times
        if t >= times[-1]:
            return self.pos[-1].copy(), np.zeros(self.pos.shape[1])
        if t <= 0.0:
            t = 0.0
        k = int(np.searchsorted(times, t, side="right")) - 1
        k = min(max(k, 0), len(times) - 2)
        h = times[k + 1] - times[k]
        s = (t - times[k]) / h
        p0, p1 = self.pos[k], self.pos[k + 1]
        if self.mode == "linear":
            return p0 + s * (p1 - p0), (p1 - p0) / h
        v0, v1 = self.vel[k] * h, self.vel[k + 1] * h     # scaled to s in [0, 1]
        if self.mode == "cubic":
            s2, s3 = s * s, s * s * s
            pos = ((2 * s3 - 3 * s2 + 1) * p0 + (s3 - 2 * s2 + s) * v0
                   + (-2 * s3 + 3 * s2) * p1 + (s3 - s2) * v1)
            dpos = ((6 * s2 - 6 * s) * p0 + (3 * s2 - 4 * s + 1) * v0
                    + (-6 * s2 + 6 * s) * p1 + (3 * s2 - 2 * s) * v1)
            return pos, dpos / h
        a0, a1 = self.acc[k] * h * h, self.acc[k + 1] * h * h
        return _quintic(s, p0, v0, a0, p1, v1, a1, h)


def _quintic(s, p0, v0, a0, p1, v1, a1, h):
    """Quintic Hermite on s in [0, 1]; returns position and d/dt."""
    c0, c1, c2 = p0, v0, a0 / 2
    c3 = 10 * (p1 - p0) - 6 * v0 - 4 * v1 - 1.5 * a0 + 0.5 * a1
    c4 = -15 * (p1 - p0) + 8 * v0 + 7 * v1 + 1.5 * a0 - a1
    c5 = 6 * (p1 - p0) - 3 * v0 - 3 * v1 - 0.5 * a0 + 0.5 * a1
    pos = c0 + s * (c1 + s * (c2 + s * (c3 + s * (c4 + s * c5))))
    dpos = c1 + s * (2 * c2 + s * (3 * c3 + s * (4 * c4 + s * 5 * c5)))
    return pos, dpos / h


def is_finite_list(values) -> bool:
    return all(math.isfinite(float(v)) for v in values)
