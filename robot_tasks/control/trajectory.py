"""Turn a joint path into a timed trajectory (ROS-free JointTrajectory data).

    make_trajectory(waypoints, names, velocity_limits, velocity_scaling, max_dq, min_steps,
                    limits=joint_limits, acceleration_scaling=0.5)

With `limits` (a JointLimits: velocity, acceleration and jerk per joint) the densified path
is timed by robot_tasks.control.time_optimal: time-optimal under the scaled velocity and
acceleration limits (TOPP-RA, or Ruckig on a straight line) and jerk-limited, points every
`sample_period` with positions, velocities and accelerations. That is what the arm server
sends for FREE, PLANNED, CARTESIAN and joint goals.

Without `limits` -- `time_parameterize`, the earlier velocity-only timing, kept for
comparison (bench/trajectories.py) and behind the arm server's `trajectory_timing:
velocity_ramp` -- each segment lasts as long as its slowest joint needs at
`velocity_limit * velocity_scaling`:

    dt_i = max_j |q[i+1, j] - q[i, j]| / (v_max[j] * velocity_scaling),  at least min_segment_time

Velocities are central differences of the timed path, zero at both ends. With `ramp_time`
> 0 a trapezoid on the path speed ramps 0 -> full -> 0 over `ramp_time` seconds. Neither
acceleration nor jerk is bounded: at every point the velocity direction changes at once,
which trajectory_check reports as hundreds of times a Franka's acceleration limit.
Times start at 0.0 for the first point (the arm's current position) and strictly increase.
"""
from __future__ import annotations

import math

import numpy as np

from .errors import InputError
from .interpolation import DEFAULT_MAX_DQ, DEFAULT_MIN_STEPS, interpolate_path
from .joint_limits import JointLimits
from .time_optimal import DEFAULT_SAMPLE_PERIOD, time_optimal_trajectory
from .trajectory_types import TimedTrajectory

__all__ = ["TimedTrajectory", "make_trajectory", "time_parameterize"]


def _trapezoid_times(full_speed_times: np.ndarray, ramp_time: float) -> np.ndarray:
    """Re-time points given their arrival times at full speed, s, with a speed factor that
    ramps 0 -> 1 in ramp_time, cruises at 1, and ramps back to 0 (acceleration 1/ramp_time)."""
    total = float(full_speed_times[-1])
    accel = 1.0 / ramp_time
    ramp_len = 0.5 * ramp_time  # distance (in s) covered while ramping up
    if total < 2.0 * ramp_len:  # triangle: peak speed sqrt(accel * total) < 1
        ramp_len = 0.5 * total
        peak = math.sqrt(accel * total)
    else:
        peak = 1.0
    t_ramp = peak / accel
    cruise_end = total - ramp_len
    t_total = 2.0 * t_ramp + (cruise_end - ramp_len) / peak
    out = np.empty_like(full_speed_times)
    for i, s in enumerate(full_speed_times):
        if s <= ramp_len:
            out[i] = math.sqrt(2.0 * s / accel)
        elif s <= cruise_end:
            out[i] = t_ramp + (s - ramp_len) / peak
        else:
            out[i] = t_total - math.sqrt(max(0.0, 2.0 * (total - s) / accel))
    return out


def time_parameterize(path, velocity_limits, velocity_scaling: float = 1.0,
                      joint_names=None, min_segment_time: float = 1e-3,
                      ramp_time: float = 0.0) -> TimedTrajectory:
    """Time a k x dof joint path so every joint respects velocity_limits * velocity_scaling.

    `velocity_scaling` must lie in (0, 1]; limits must be positive and finite;
    `ramp_time` (s, 0 = off) adds the trapezoidal speed profile described above.
    """
    try:
        pts = np.asarray(path, dtype=float)
        vmax = np.asarray(velocity_limits, dtype=float).reshape(-1)
    except (TypeError, ValueError) as exc:
        raise InputError(f"path/velocity_limits: not numeric ({exc})") from None
    if pts.ndim != 2 or pts.shape[0] < 1:
        raise InputError(f"path: expected a k x dof array, got shape {pts.shape}")
    if not np.all(np.isfinite(pts)):
        raise InputError("path: contains NaN or infinity")
    if vmax.shape[0] != pts.shape[1]:
        raise InputError(f"velocity_limits has {vmax.shape[0]} entries for {pts.shape[1]} joints")
    if not np.all(np.isfinite(vmax)) or np.any(vmax <= 0):
        raise InputError(f"velocity_limits must be positive and finite, got {vmax.tolist()}")
    if not (isinstance(velocity_scaling, (int, float)) and math.isfinite(velocity_scaling)
            and 0.0 < velocity_scaling <= 1.0):
        raise InputError(f"velocity_scaling must be in (0, 1], got {velocity_scaling!r}")
    if not (min_segment_time > 0 and math.isfinite(min_segment_time)):
        raise InputError(f"min_segment_time must be positive, got {min_segment_time!r}")
    if not (isinstance(ramp_time, (int, float)) and math.isfinite(ramp_time) and ramp_time >= 0):
        raise InputError(f"ramp_time must be a non-negative number of seconds, got {ramp_time!r}")
    names = list(joint_names) if joint_names is not None else \
        [f"joint{j + 1}" for j in range(pts.shape[1])]
    if len(names) != pts.shape[1]:
        raise InputError(f"{len(names)} joint names for a path of {pts.shape[1]} joints")

    speed = vmax * velocity_scaling
    steps = np.abs(np.diff(pts, axis=0))
    durations = np.maximum((steps / speed).max(axis=1) if len(steps) else np.zeros(0),
                           min_segment_time)
    times = np.concatenate([[0.0], np.cumsum(durations)])
    if ramp_time > 0 and len(times) > 1:
        times = _trapezoid_times(times, float(ramp_time))
    vel = np.zeros_like(pts)
    if len(pts) > 2:
        vel[1:-1] = (pts[2:] - pts[:-2]) / (times[2:] - times[:-2])[:, None]
    return TimedTrajectory(names, pts.tolist(), vel.tolist(), times.tolist())


def make_trajectory(waypoints, joint_names, velocity_limits, velocity_scaling: float = 1.0,
                    max_dq: float = DEFAULT_MAX_DQ, min_steps: int = DEFAULT_MIN_STEPS,
                    ramp_time: float = 0.0, *, limits: JointLimits | None = None,
                    acceleration_scaling: float = 1.0,
                    sample_period: float = DEFAULT_SAMPLE_PERIOD) -> TimedTrajectory:
    """The whole recipe for a controller command: densify `waypoints` (k x dof, e.g. [q_now,
    q_goal] or a planner path) so no step exceeds max_dq, then time it. With `limits`
    (unscaled; `velocity_limits` is then unused, `limits.velocity` already merges the URDF's)
    time-optimally within the scaled velocity and acceleration limits and the jerk limits;
    without, by the velocity-only rule above. Row 0 should be the measured current position."""
    dense = interpolate_path(waypoints, max_dq, min_steps)
    if limits is None:
        return time_parameterize(dense, velocity_limits, velocity_scaling, joint_names,
                                 ramp_time=ramp_time)
    return time_optimal_trajectory(dense, limits.scaled(velocity_scaling, acceleration_scaling),
                                   joint_names, sample_period=sample_period)
