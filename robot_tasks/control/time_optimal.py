"""Time-optimal, jerk-limited timing of a joint path, on the field's libraries.

    traj = time_optimal_trajectory(path, limits)     # limits: JointLimits, already scaled

The path (k x dof, row 0 = where the arm is) is followed exactly; only *when* each point
is reached is chosen, as fast as the joints' velocity, acceleration and jerk limits allow.
Two cases:

* A straight joint-space line (FREE and joint goals) is one degree of freedom: the fraction
  s of the line. Ruckig computes the time-optimal rest-to-rest profile of s under the
  tightest of the joints' limits divided by their share of the line (a joint that moves
  d_j needs v_j/|d_j| on s, and so on). That profile is optimal under velocity,
  acceleration *and* jerk, and every joint stays on the line.
* Any other path (PLANNED, CARTESIAN) is fitted with a C2 cubic spline q(s) through its
  points, and TOPP-RA (toppra) finds the time-optimal path speed under the velocity and
  acceleration limits: a bang-bang profile whose acceleration jumps at every switch, which a
  Franka refuses and a UR follows with a jolt. Those jumps are smoothed by averaging the
  time law over a window tau (a moving-average, or "FIR", jerk filter, as CNC controllers
  use): the filtered law is the mean of the optimal one over the last tau seconds, so its
  path speed and acceleration are means of feasible values, its jerk is at most
  (acceleration swing)/tau, and start and stop become acceleration ramps. The cost is tau
  per motion; tau = max_j 2 a_j / j_j (an acceleration swing of -a..a within the jerk
  limit), at least two sample periods.

Why not Ruckig over the whole path: Ruckig's waypoint mode (intermediate_positions) is
Ruckig Pro or a call to its cloud API, and it would not follow the planned path between
waypoints anyway -- a PLANNED path must be followed as planned (it was collision-checked)
and a CARTESIAN one keeps the tool on its line. Ruckig for only the start and stop would
leave TOPP-RA's acceleration jumps in the middle. Measured with bench/trajectories.py.

The result is sampled every `sample_period` with positions, velocities and accelerations,
so the controller interpolates each interval with a quintic (ros2_control's JTC, the sim).
Sample times are whole nanoseconds, the resolution of a JointTrajectory's time_from_start,
and each point is the motion's exact state at its time: a quintic's jerk divides by the
interval's length cubed, so point data computed for a time the message then rounds by
half a nanosecond read, over a 19 µs interval between two of Ruckig's phase switches, as
62 times the UR10's jerk limit (found by checking every trajectory of a palletizing
episode, robot_tasks/demo/sent_trajectories.py); for the same reason no two points are
closer than a fifth of the sample period.
The sampled quintic is what the robot runs, so it is checked (trajectory_check): if it
exceeds a limit anywhere (the filter's averaging at a sharp corner of a planned path, the
spline's curvature between TOPP-RA's grid points, a phase switch between two points), the
motion is slowed by the one time factor that brings the worst ratio to 1 -- stretching
time by k divides velocities by k, accelerations by k², jerks by k³ -- and sampled again.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Callable

import numpy as np

from .errors import InputError
from .joint_limits import JointLimits
from .trajectory_check import DEFAULT_CONTROL_PERIOD, check_trajectory
from .trajectory_types import TimedTrajectory

DEFAULT_SAMPLE_PERIOD = 0.01   # s between the points sent to the controller
MAX_GRIDPOINTS = 2000          # TOPP-RA's grid: every path point, bounded compute
LINE_TOLERANCE = 1e-9          # rad: a path within this of its chord is a straight line
NANOSECOND = 1e-9              # s: the resolution of a JointTrajectory's time_from_start
SLOW_DOWN_ROUNDS = 3           # re-samplings of a stretched motion (each one is checked)


@dataclass(frozen=True)
class _Motion:
    """A timed motion before sampling: its state at any time, rest after `duration`."""

    duration: float
    state: Callable          # times (n,) -> q, qd, qdd, each (n, dof)
    knots: tuple = ()        # times that should be points (Ruckig's phase switches)


def time_optimal_trajectory(path, limits: JointLimits, joint_names=None,
                            sample_period: float = DEFAULT_SAMPLE_PERIOD,
                            control_period: float = DEFAULT_CONTROL_PERIOD) -> TimedTrajectory:
    """Time `path` (k x dof) within `limits` (apply velocity/acceleration scaling first)."""
    pts = np.asarray(path, dtype=float)
    if pts.ndim != 2 or pts.shape[0] < 1 or pts.shape[1] != len(limits.joint_names):
        raise InputError(f"path: expected a k x {len(limits.joint_names)} array, got {pts.shape}")
    if not np.all(np.isfinite(pts)):
        raise InputError("path: contains NaN or infinity")
    if not (sample_period > 0 and math.isfinite(sample_period)):
        raise InputError(f"sample_period must be positive, got {sample_period!r}")
    names = list(joint_names) if joint_names is not None else list(limits.joint_names)
    # Repeated points carry no geometry and would break the spline's parameter.
    step = np.linalg.norm(np.diff(pts, axis=0), axis=1)
    pts = np.vstack([pts[:1], pts[1:][step > 1e-12]])
    if len(pts) == 1:  # already there: hold for one sample
        zero = [0.0] * pts.shape[1]
        return TimedTrajectory(names, [pts[0].tolist()] * 2, [zero, zero],
                               [0.0, sample_period], [zero, zero])
    if _is_line(pts):
        motion = _ruckig_line(pts[0], pts[-1], limits)
        traj = _sampled(motion, names, sample_period)
    else:
        motion, traj = _toppra_trajectory(pts, limits, names, sample_period, control_period)
    return _slow_down_to_limits(motion, traj, limits, names, sample_period, control_period)


def _toppra_trajectory(pts, limits: JointLimits, names, period: float, control_period: float):
    """TOPP-RA + filter; where the filtered result overshoots the velocity or acceleration
    limit (averaging across a sharp corner), once more with those limits lowered by the
    overshoot -- which slows only the parts TOPP-RA finds limited by them."""
    target = limits
    for _ in range(2):
        motion = _toppra_filtered(pts, target, period)
        traj = _sampled(motion, names, period)
        report = check_trajectory(traj, limits, control_period)
        over_v, over_a = report.worst_of("velocity"), report.worst_of("acceleration")
        if max(over_v, over_a) <= 1.0 + 1e-6:
            break
        target = JointLimits(limits.joint_names, target.velocity / max(over_v, 1.0),
                             target.acceleration / max(over_a, 1.0), limits.jerk, limits.source)
    return motion, traj


def _sampled(motion: _Motion, names, period: float, stretch: float = 1.0) -> TimedTrajectory:
    """The motion slowed by `stretch` (>= 1), sampled at the same places of the motion
    whatever the stretch (so its ratios to the limits scale as 1/k, 1/k², 1/k³), each
    point the exact state at the whole-nanosecond time its message will carry."""
    times = _sample_times(motion.duration, period, motion.knots)
    if stretch != 1.0:
        times = _on_nanoseconds(times * stretch)
    q, qd, qdd = motion.state(times / stretch)
    return TimedTrajectory(names, q.tolist(), (qd / stretch).tolist(), times.tolist(),
                           (qdd / stretch ** 2).tolist())


def warm_up() -> None:
    """Import the libraries ahead of the first trajectory (toppra's import takes seconds)."""
    import ruckig  # noqa: F401
    import toppra.algorithm  # noqa: F401


def _is_line(pts: np.ndarray) -> bool:
    chord = pts[-1] - pts[0]
    length = np.linalg.norm(chord)
    if length == 0:
        return False
    rel = pts - pts[0]
    along = rel @ (chord / length)
    off = rel - np.outer(along, chord / length)
    return bool(np.max(np.linalg.norm(off, axis=1)) < LINE_TOLERANCE
                and np.all(np.diff(along) >= -LINE_TOLERANCE))


def _sample_times(duration: float, period: float, extra=()) -> np.ndarray:
    """Every `period` from 0 to duration, plus the `extra` times, on whole nanoseconds; a
    grid time closer than period/5 to an extra one gives way to it, and an extra time that
    close to the previous kept one is dropped (a very short interval makes the quintic's
    coefficients, divided by its length cubed, lose precision)."""
    n = max(1, math.ceil(duration / period - 1e-9))
    grid = np.linspace(0.0, duration, n + 1)
    kept = []
    for t in sorted(extra):
        if 0.0 < t < duration and (not kept or t - kept[-1] >= period / 5):
            kept.append(t)
    extra = np.asarray(kept, dtype=float)
    if extra.size:
        near = np.min(np.abs(grid[:, None] - extra[None, :]), axis=1) < period / 5
        near[0] = near[-1] = False
        grid = grid[~near]
        extra = extra[np.min(np.abs(extra[:, None] - grid[None, :]), axis=1) >= period / 5]
    return _on_nanoseconds(np.unique(np.concatenate([grid, extra])))


def _on_nanoseconds(times: np.ndarray) -> np.ndarray:
    """Increasing times rounded to whole nanoseconds, the last one up (the motion is at
    rest from its end on, so a point after the end is still exact)."""
    ticks = np.round(times / NANOSECOND)
    ticks[-1] = math.ceil(times[-1] / NANOSECOND - 1e-6)
    return ticks * NANOSECOND


def _ruckig_line(q0: np.ndarray, q1: np.ndarray, limits: JointLimits) -> _Motion:
    """Rest-to-rest along the line q0 -> q1, s in [0, 1], by Ruckig (one DoF)."""
    from ruckig import InputParameter, Result, Ruckig, Trajectory

    d = q1 - q0
    moving = np.abs(d) > 0
    share = np.abs(d[moving])
    inp = InputParameter(1)
    inp.current_position, inp.target_position = [0.0], [1.0]
    inp.max_velocity = [float(np.min(limits.velocity[moving] / share))]
    inp.max_acceleration = [float(np.min(limits.acceleration[moving] / share))]
    inp.max_jerk = [float(np.min(limits.jerk[moving] / share))]
    profile = Trajectory(1)
    result = Ruckig(1).calculate(inp, profile)
    if result not in (Result.Working, Result.Finished):
        raise InputError(f"Ruckig could not time the line: {result}")
    # Sample at every phase switch too: between switches s(t) is one cubic, which the
    # controller's quintic through (p, v, a) reproduces exactly.
    switches = tuple(float(t) for t in np.cumsum(profile.profiles[0][0].t))

    def state(times):
        s = np.array([profile.at_time(float(min(t, profile.duration))) for t in times])  # (n, 3, 1)
        s, sd, sdd = s[:, 0, 0], s[:, 1, 0], s[:, 2, 0]
        return q0 + np.outer(s, d), np.outer(sd, d), np.outer(sdd, d)

    return _Motion(profile.duration, state, switches)


def _toppra_filtered(pts: np.ndarray, limits: JointLimits, period: float) -> _Motion:
    """TOPP-RA on a spline through pts, then the moving-average jerk filter."""
    import toppra
    import toppra.algorithm
    import toppra.constraint as constraint

    toppra.setup_logging("WARNING")
    ss = np.concatenate([[0.0], np.cumsum(np.linalg.norm(np.diff(pts, axis=0), axis=1))])
    spline = toppra.SplineInterpolator(ss, pts)
    grid = _gridpoints(ss)
    vel = constraint.JointVelocityConstraint(np.column_stack([-limits.velocity, limits.velocity]))
    acc = constraint.JointAccelerationConstraint(
        np.column_stack([-limits.acceleration, limits.acceleration]),
        discretization_scheme=constraint.DiscretizationType.Interpolation)
    solver = toppra.algorithm.TOPPRA([vel, acc], spline, gridpoints=grid, solver_wrapper="seidel")
    _, sd, _ = solver.compute_parameterization(0.0, 0.0)
    if sd is None or not np.all(np.isfinite(sd)):
        raise InputError("TOPP-RA found no feasible path speed (path not controllable)")
    law = _TimeLaw(grid, np.maximum(sd, 0.0))
    tau = max(float(np.max(2.0 * limits.acceleration / limits.jerk)), 2.0 * period)
    duration = law.duration + tau

    def state(times):
        s, sd_f, sdd_f = law.filtered(times, tau)
        s = np.clip(s, 0.0, ss[-1])
        q, dq, ddq = spline(s), spline(s, 1), spline(s, 2)
        # exact ends (the arm is there / the goal)
        q = np.where((times <= 0.0)[:, None], pts[0], np.where((times >= duration)[:, None], pts[-1], q))
        return q, dq * sd_f[:, None], dq * sdd_f[:, None] + ddq * (sd_f ** 2)[:, None]

    return _Motion(duration, state)


def _gridpoints(ss: np.ndarray) -> np.ndarray:
    """TOPP-RA checks the constraints only at its grid points: put one at every path point
    and one between (a corner's curvature sits between two points), at most MAX_GRIDPOINTS
    evenly spaced beyond that."""
    if 2 * len(ss) - 1 <= MAX_GRIDPOINTS:
        mid = (ss[:-1] + ss[1:]) / 2
        return np.sort(np.concatenate([ss, mid]))
    return np.linspace(0.0, ss[-1], MAX_GRIDPOINTS)


class _TimeLaw:
    """s(t) with constant path acceleration between grid points (TOPP-RA's own model):
    path speed sd_i at s_i, so interval i lasts 2 ds / (sd_i + sd_i+1)."""

    def __init__(self, s: np.ndarray, sd: np.ndarray):
        ds = np.diff(s)
        speed_sum = sd[:-1] + sd[1:]
        floor = 1e-9 * max(float(np.max(sd)), 1e-9)   # a zero-speed interior point: tiny, not 0
        dt = 2.0 * ds / np.maximum(speed_sum, floor)
        self.s, self.sd = s, sd
        self.u = np.where(dt > 0, (sd[1:] - sd[:-1]) / dt, 0.0)        # path acceleration
        self.t = np.concatenate([[0.0], np.cumsum(dt)])
        # Integral of s over time up to each grid time (for the filter).
        piece = s[:-1] * dt + sd[:-1] * dt ** 2 / 2 + self.u * dt ** 3 / 6
        self.S = np.concatenate([[0.0], np.cumsum(piece)])
        self.duration = float(self.t[-1])

    def _eval(self, t: np.ndarray):
        """s, sd and the integral of s at times t (rest at 0 before, at the end after)."""
        T, end = self.duration, self.s[-1]
        tc = np.clip(t, 0.0, T)
        k = np.clip(np.searchsorted(self.t, tc, side="right") - 1, 0, len(self.u) - 1)
        x = tc - self.t[k]
        s = self.s[k] + self.sd[k] * x + self.u[k] * x ** 2 / 2
        sd = self.sd[k] + self.u[k] * x
        S = self.S[k] + self.s[k] * x + self.sd[k] * x ** 2 / 2 + self.u[k] * x ** 3 / 6
        before, after = t < 0.0, t > T
        s = np.where(before, 0.0, np.where(after, end, s))
        sd = np.where(before | after, 0.0, sd)
        S = np.where(before, 0.0, np.where(after, self.S[-1] + end * (t - T), S))
        return s, sd, S

    def filtered(self, t: np.ndarray, tau: float):
        """The law averaged over [t - tau, t]: position, speed, acceleration."""
        s1, sd1, S1 = self._eval(t)
        s0, sd0, S0 = self._eval(t - tau)
        return (S1 - S0) / tau, (s1 - s0) / tau, (sd1 - sd0) / tau


def _slow_down_to_limits(motion: _Motion, traj: TimedTrajectory, limits: JointLimits, names,
                         period: float, control_period: float) -> TimedTrajectory:
    """Stretch time uniformly while the sampled trajectory exceeds a limit anywhere; each
    stretched motion is sampled afresh, on the same whole-nanosecond grid rule, and
    checked again (new sample times see the motion in new places)."""
    stretch = 1.0
    for _ in range(SLOW_DOWN_ROUNDS):
        report = check_trajectory(traj, limits, control_period)
        k = max(1.0, float(np.max(report.velocity)), math.sqrt(float(np.max(report.acceleration))),
                float(np.max(report.jerk)) ** (1.0 / 3.0))
        if k <= 1.0:
            break
        stretch *= k * (1.0 + 1e-6)
        traj = _sampled(motion, names, period, stretch)
    return traj
