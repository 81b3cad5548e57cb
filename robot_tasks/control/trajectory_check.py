"""How close a timed trajectory comes to the joints' velocity, acceleration and jerk limits.

    report = check_trajectory(traj, limits)          # limits: a JointLimits
    report.worst()   -> (ratio, kind, joint name)    # 1.0 = exactly at a limit
    report.within(tolerance=1e-6) -> bool

The numbers are those of the motion the trajectory controller will actually command, so
they follow its interpolation between points (ros2_control's joint_trajectory_controller,
and the sim's robot_tasks/sim/trajectory.py Interpolator):

* positions only            -> linear: constant velocity per segment;
* positions + velocities    -> cubic Hermite: acceleration linear, jerk constant per segment;
* + accelerations           -> quintic Hermite: jerk a quadratic per segment.

Inside a segment each derivative is a polynomial, so its largest magnitude is found
exactly, at a segment end or where the next derivative is zero. Between segments the
interpolation can jump: a linear one changes velocity at once, a cubic one acceleration.
The controller turns such a jump into a step of one control period, so a jump Δv reads as
an acceleration Δv/T and a jerk Δv/T², a jump Δa as a jerk Δa/T (T = `control_period`;
1 ms is a Franka's, the strictest). The arm is taken to be at rest before the first point
and after the last (the controller holds the last point), so those boundaries count too.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .errors import InputError
from .joint_limits import KINDS, JointLimits

DEFAULT_CONTROL_PERIOD = 1e-3   # s: a Franka's 1 kHz; the sim runs 240 Hz (looser)


@dataclass
class LimitReport:
    """Worst |derivative| / limit of each joint (arrays in joint order), and the mode."""

    joint_names: tuple
    velocity: np.ndarray
    acceleration: np.ndarray
    jerk: np.ndarray
    interpolation: str

    def worst(self):
        """(ratio, kind, joint name) of the largest ratio."""
        best = (-1.0, "", "")
        for kind in KINDS:
            ratios = getattr(self, kind)
            j = int(np.argmax(ratios))
            if ratios[j] > best[0]:
                best = (float(ratios[j]), kind, self.joint_names[j])
        return best

    def worst_of(self, kind: str) -> float:
        return float(np.max(getattr(self, kind)))

    def within(self, tolerance: float = 1e-6) -> bool:
        return self.worst()[0] <= 1.0 + tolerance


def _max_abs_on_unit(coeffs: np.ndarray) -> np.ndarray:
    """max over s in [0, 1] of |P(s)| for each row of `coeffs` (ascending powers)."""
    rows, n = coeffs.shape
    points = [np.zeros(rows), np.ones(rows)]
    if n >= 3:  # critical points: roots of P'
        deriv = coeffs[:, 1:] * np.arange(1, n)
        lead = deriv[:, -1]
        scale = np.max(np.abs(deriv), axis=1)
        ok = np.abs(lead) > 1e-12 * np.maximum(scale, 1e-300)
        if n == 3:  # P' linear
            root = np.where(ok, -deriv[:, 0] / np.where(ok, lead, 1.0), 0.0)
            points.append(root)
        else:       # companion matrices of P' (degree n-2), eigenvalues batched
            m = n - 2
            comp = np.zeros((rows, m, m))
            comp[:, 1:, :-1] = np.eye(m - 1)
            comp[:, :, -1] = -deriv[:, :-1] / np.where(ok, lead, 1.0)[:, None]
            roots = np.linalg.eigvals(comp)
            real = np.where(np.abs(roots.imag) < 1e-9, roots.real, 0.0)
            points.extend(real.T)
        if not np.all(ok):  # a lower-degree P': sample it densely instead
            points.extend(np.broadcast_to(s, rows) for s in np.linspace(0.0, 1.0, 65))
    s = np.clip(np.stack(points, axis=1), 0.0, 1.0)
    values = np.zeros_like(s)
    for power in range(n - 1, -1, -1):
        values = values * s + coeffs[:, power:power + 1]
    return np.max(np.abs(values), axis=1)


def _segment_polynomials(times, pos, vel, acc):
    """Coefficients in s = (t - t_k)/h of each segment, shape (segments, joints, degree+1)."""
    h = np.diff(times)[:, None]
    p0, p1 = pos[:-1], pos[1:]
    if vel is None:
        return np.stack([p0, p1 - p0], axis=-1)
    v0, v1 = vel[:-1] * h, vel[1:] * h
    if acc is None:
        c2 = 3 * (p1 - p0) - 2 * v0 - v1
        c3 = 2 * (p0 - p1) + v0 + v1
        return np.stack([p0, v0, c2, c3], axis=-1)
    a0, a1 = acc[:-1] * h * h, acc[1:] * h * h
    c3 = 10 * (p1 - p0) - 6 * v0 - 4 * v1 - 1.5 * a0 + 0.5 * a1
    c4 = -15 * (p1 - p0) + 8 * v0 + 7 * v1 + 1.5 * a0 - a1
    c5 = 6 * (p1 - p0) - 3 * v0 - 3 * v1 - 0.5 * a0 + 0.5 * a1
    return np.stack([p0, v0, a0 / 2, c3, c4, c5], axis=-1)


def _derivative(coeffs):
    n = coeffs.shape[-1]
    if n <= 1:
        return np.zeros(coeffs.shape[:-1] + (1,))
    return coeffs[..., 1:] * np.arange(1, n)


def _at(coeffs, s: float):
    powers = s ** np.arange(coeffs.shape[-1])
    return coeffs @ powers


def check_trajectory(traj, limits: JointLimits,
                     control_period: float = DEFAULT_CONTROL_PERIOD) -> LimitReport:
    """Worst velocity, acceleration and jerk of each joint of `traj` (a TimedTrajectory)
    relative to `limits` (matched by joint name), as the controller interpolates it."""
    if not control_period > 0:
        raise InputError(f"control_period must be positive, got {control_period!r}")
    index = {n: i for i, n in enumerate(limits.joint_names)}
    missing = [n for n in traj.joint_names if n not in index]
    if missing:
        raise InputError(f"no limits for joints {missing}")
    idx = [index[n] for n in traj.joint_names]
    vmax, amax, jmax = limits.velocity[idx], limits.acceleration[idx], limits.jerk[idx]
    dof = len(idx)
    times = np.asarray(traj.time_from_start, dtype=float)
    pos = np.asarray(traj.positions, dtype=float).reshape(len(times), dof)
    has_vel = len(traj.velocities) == len(times) and all(len(v) for v in traj.velocities)
    accs = getattr(traj, "accelerations", None) or []
    has_acc = has_vel and len(accs) == len(times) and all(len(a) for a in accs)
    vel = np.asarray(traj.velocities, dtype=float).reshape(len(times), dof) if has_vel else None
    acc = np.asarray(accs, dtype=float).reshape(len(times), dof) if has_acc else None
    mode = "quintic" if has_acc else "cubic" if has_vel else "linear"

    worst = {kind: np.zeros(dof) for kind in KINDS}
    if len(times) >= 2:
        h = np.diff(times)[:, None]
        c = _segment_polynomials(times, pos, vel, acc)                # (K, dof, deg+1)
        cv = _derivative(c)
        ca = _derivative(cv)
        cj = _derivative(ca)
        for kind, coeffs, power in (("velocity", cv, 1), ("acceleration", ca, 2), ("jerk", cj, 3)):
            k, d, n = coeffs.shape
            peak = _max_abs_on_unit(coeffs.reshape(k * d, n)).reshape(k, d) / h ** power
            worst[kind] = np.maximum(worst[kind], peak.max(axis=0))
        # One-sided values at every knot, with rest before the start and after the end.
        zeros = np.zeros((1, dof))
        v_start, v_end = _at(cv, 0.0) / h, _at(cv, 1.0) / h
        a_start, a_end = _at(ca, 0.0) / h ** 2, _at(ca, 1.0) / h ** 2
        v_left = np.vstack([zeros, v_end])      # velocity just before knot k
        v_right = np.vstack([v_start, zeros])   # and just after it
        a_left = np.vstack([zeros, a_end])
        a_right = np.vstack([a_start, zeros])
        dv = np.abs(v_right - v_left).max(axis=0)
        da = np.abs(a_right - a_left).max(axis=0)
        worst["acceleration"] = np.maximum(worst["acceleration"], dv / control_period)
        worst["jerk"] = np.maximum(worst["jerk"], da / control_period
                                   + dv / control_period ** 2)
    return LimitReport(tuple(traj.joint_names), worst["velocity"] / vmax,
                       worst["acceleration"] / amax, worst["jerk"] / jmax, mode)
