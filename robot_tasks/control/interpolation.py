"""Joint-space interpolation with a hard bound on the step between consecutive targets.

A position-controlled arm follows commanded targets; if two consecutive targets are far
apart the controller jerks (or, for a grasped object, lets it slip). So every path we send
is densified until no joint moves more than `max_dq` between neighbouring points:

    n = max(min_steps, ceil(max_j |q_goal[j] - q_start[j]| / max_dq))

The bound is checked on the floating-point result itself, so it holds *exactly*
(rounding that would push a step over max_dq by one ulp adds one more step instead).
"""
from __future__ import annotations

import math

import numpy as np

from .errors import InputError

DEFAULT_MAX_DQ = 0.006   # rad: ~0.34 degrees between consecutive commanded targets
DEFAULT_MIN_STEPS = 40   # even a tiny move is spread over this many steps (smooth start/stop)


def _check_bound(max_dq: float, min_steps: int) -> None:
    if not (isinstance(max_dq, (int, float)) and math.isfinite(max_dq) and max_dq > 0):
        raise InputError(f"max_dq must be a positive finite number, got {max_dq!r}")
    if int(min_steps) != min_steps or min_steps < 1:
        raise InputError(f"min_steps must be an integer >= 1, got {min_steps!r}")


def _as_joint_vector(values, what: str) -> np.ndarray:
    try:
        vec = np.asarray(values, dtype=float).reshape(-1)
    except (TypeError, ValueError) as exc:
        raise InputError(f"{what}: not a numeric vector ({exc})") from None
    if vec.size == 0:
        raise InputError(f"{what}: empty joint vector")
    if not np.all(np.isfinite(vec)):
        raise InputError(f"{what}: contains NaN or infinity")
    return vec


def _max_step(points: np.ndarray) -> float:
    return float(np.max(np.abs(np.diff(points, axis=0)))) if len(points) > 1 else 0.0


def _segment(q0: np.ndarray, q1: np.ndarray, n: int, max_dq: float) -> np.ndarray:
    """n+1 points from q0 to q1 (both included) with every step <= max_dq, exactly."""
    while True:
        t = np.arange(n + 1, dtype=float)[:, None] / n
        points = q0 + t * (q1 - q0)
        points[-1] = q1
        if _max_step(points) <= max_dq:
            return points
        n += 1  # floating-point rounding pushed a step over the bound by an ulp


def step_count(q_start, q_goal, max_dq: float = DEFAULT_MAX_DQ,
               min_steps: int = DEFAULT_MIN_STEPS) -> int:
    """n = max(min_steps, ceil(max|dq| / max_dq)) — the number of steps before rounding fixes."""
    _check_bound(max_dq, min_steps)
    q0 = _as_joint_vector(q_start, "q_start")
    q1 = _as_joint_vector(q_goal, "q_goal")
    if q0.shape != q1.shape:
        raise InputError(f"q_start has {q0.size} joints but q_goal has {q1.size}")
    largest = float(np.max(np.abs(q1 - q0)))
    return max(int(min_steps), int(math.ceil(largest / max_dq)))


def interpolate_joints(q_start, q_goal, max_dq: float = DEFAULT_MAX_DQ,
                       min_steps: int = DEFAULT_MIN_STEPS) -> np.ndarray:
    """Straight line in joint space from q_start to q_goal as an (n+1) x dof array.

    Row 0 is q_start, row n is exactly q_goal, and for every pair of neighbouring rows
    max_j |row[i+1, j] - row[i, j]| <= max_dq holds in floating point. Zero motion gives
    min_steps + 1 identical rows (still a valid, bounded command stream).
    """
    n = step_count(q_start, q_goal, max_dq, min_steps)
    return _segment(_as_joint_vector(q_start, "q_start"), _as_joint_vector(q_goal, "q_goal"),
                    n, max_dq)


def interpolate_path(waypoints, max_dq: float = DEFAULT_MAX_DQ,
                     min_steps: int = DEFAULT_MIN_STEPS) -> np.ndarray:
    """Densify a joint path (k x dof waypoints, e.g. from the planner) with the same bound.

    Each segment gets ceil(max|dq| / max_dq) steps (at least one); if the whole path would
    have fewer than min_steps steps, every segment is stretched proportionally so the
    total reaches min_steps. Waypoints are all kept; consecutive duplicates are dropped.
    """
    _check_bound(max_dq, min_steps)
    try:
        pts = np.asarray(waypoints, dtype=float)
    except (TypeError, ValueError) as exc:
        raise InputError(f"waypoints: not a numeric array ({exc})") from None
    if pts.ndim != 2 or pts.shape[0] < 1 or pts.shape[1] < 1:
        raise InputError(f"waypoints: expected a k x dof array, got shape {pts.shape}")
    if not np.all(np.isfinite(pts)):
        raise InputError("waypoints: contains NaN or infinity")
    keep = [0] + [i for i in range(1, len(pts)) if np.any(pts[i] != pts[i - 1])]
    pts = pts[keep]
    if len(pts) == 1:
        return _segment(pts[0], pts[0], int(min_steps), max_dq)
    counts = [max(1, int(math.ceil(float(np.max(np.abs(b - a))) / max_dq)))
              for a, b in zip(pts[:-1], pts[1:])]
    total = sum(counts)
    if total < min_steps:
        counts = [int(math.ceil(c * min_steps / total)) for c in counts]
    pieces = [_segment(a, b, c, max_dq) for a, b, c in zip(pts[:-1], pts[1:], counts)]
    return np.vstack([pieces[0]] + [p[1:] for p in pieces[1:]])


def max_joint_step(points) -> float:
    """Largest |difference| of any joint between consecutive rows (0 for < 2 rows)."""
    return _max_step(np.asarray(points, dtype=float))
