"""The task frame: where operational-space axes, gains and targets are stated.

A contact task is easiest to describe in a frame attached to the surface: "push 10 N along
the wall's normal z, move freely along its x and y". The controller works in the arm's base
frame, so per-axis quantities stated in the task frame (rotation R_t relative to the base)
are rotated into the base frame, three axes at a time:

    S_base = blockdiag(R_t, R_t) · diag(s) · blockdiag(R_t, R_t)ᵀ

For a 0/1 axis mask `s` this is a *selection matrix* (a projector onto the chosen task
axes); for per-axis gains it is the gain matrix the task frame implies in base axes.
"""
from __future__ import annotations

import numpy as np

from ..errors import InputError
from ..pose import Pose, as_vector


def axis_mask(values, what: str) -> np.ndarray:
    """A 6-vector of 0/1 flags (x, y, z, rx, ry, rz), or InputError."""
    vec = as_vector(values, 6, what)
    if not np.all((vec == 0.0) | (vec == 1.0)):
        raise InputError(f"{what}: entries must be 0 or 1, got {vec.tolist()}")
    return vec


def rotate_diagonal(rotation: np.ndarray, diagonal: np.ndarray) -> np.ndarray:
    """6x6 base-frame matrix of a per-axis diagonal stated in a frame rotated by `rotation`."""
    out = np.zeros((6, 6))
    for block in (slice(0, 3), slice(3, 6)):
        out[block, block] = rotation @ np.diag(diagonal[block]) @ rotation.T
    return out


def rotate_twist(rotation: np.ndarray, vector6: np.ndarray) -> np.ndarray:
    """A 6-vector (linear; angular) re-expressed from task axes into base axes."""
    return np.concatenate([rotation @ vector6[:3], rotation @ vector6[3:]])


def task_to_base(task_frame: Pose, target: Pose) -> Pose:
    """A pose given in the task frame, expressed in the base frame."""
    return Pose.from_se3(task_frame.to_se3() * target.to_se3())
