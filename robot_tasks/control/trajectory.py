"""Turn a joint path into a time-parameterized trajectory (ROS-free JointTrajectory data).

Each segment lasts as long as its slowest joint needs at `velocity_limit * velocity_scaling`:

    dt_i = max_j |q[i+1, j] - q[i, j]| / (v_max[j] * velocity_scaling),  at least min_segment_time

so no joint ever exceeds its scaled limit on a linearly interpolated segment. Times start
at 0.0 for the first point (the arm's current position) and strictly increase, as
trajectory_msgs/JointTrajectory requires. Velocities are central differences of the
timed path, zero at both ends (the arm starts and finishes at rest).

With `ramp_time` > 0 the whole path is additionally run through a trapezoidal speed
profile: speed grows linearly from 0 to full over `ramp_time` seconds and falls the same
way at the end (a triangle if the path is too short to reach full speed). Speeds stay at
or below the limits; the start and stop are no longer velocity steps, which a real arm
(e.g. a Franka's reflexes) would punish.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from .errors import InputError
from .interpolation import DEFAULT_MAX_DQ, DEFAULT_MIN_STEPS, interpolate_path


@dataclass
class TimedTrajectory:
    """Plain-data trajectory: what a JointTrajectory message needs, as lists of floats."""

    joint_names: list
    positions: list          # one list of dof floats per point
    velocities: list         # same shape as positions, or [] per point (positions only: linear)
    time_from_start: list    # seconds, strictly increasing; first 0.0 (the measured start), or > 0
                             # when the controller starts from its own command (BOUNDED)

    @property
    def duration(self) -> float:
        return self.time_from_start[-1] if self.time_from_start else 0.0

    def __len__(self) -> int:
        return len(self.positions)


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
                    ramp_time: float = 0.0) -> TimedTrajectory:
    """The whole recipe for a controller command: densify `waypoints` (k x dof, e.g. [q_now,
    q_goal] or a planner path) so no step exceeds max_dq, then time it within the scaled
    velocity limits. Row 0 should be the measured current position."""
    dense = interpolate_path(waypoints, max_dq, min_steps)
    return time_parameterize(dense, velocity_limits, velocity_scaling, joint_names,
                             ramp_time=ramp_time)
