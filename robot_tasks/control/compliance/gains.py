"""Impedance gains shared by the joint and operational-space controllers.

An impedance controller makes the arm behave like a mass-spring-damper around a target:

    (acceleration) = kp · (x_des − x) − kd · ẋ

`kp` is the stiffness, `kd` the damping. Both controllers state damping as a *damping ratio*
ζ instead: for a unit mass, kd = 2 √kp · ζ gives a critically damped spring at ζ = 1 (no
overshoot, fastest settling), under-damped below 1 and over-damped above.

Impedance modes (Isaac Lab's names): how many numbers each command carries —
- "fixed":        targets only; stiffness and damping ratio come from the config;
- "variable_kp":  targets + one stiffness per axis; damping ratio from the config;
- "variable":     targets + one stiffness + one damping ratio per axis.

Gains are checked, never silently clamped: a NaN, a wrong length or a value outside its
limits raises InputError naming the offending entry.
"""
from __future__ import annotations

import numpy as np

from ..errors import InputError
from ..pose import as_vector

IMPEDANCE_MODES = ("fixed", "variable_kp", "variable")

#: how many length-n blocks a command carries in each impedance mode (targets, kp, ζ)
GAIN_BLOCKS = {"fixed": 0, "variable_kp": 1, "variable": 2}


def check_choice(value: str, choices, what: str) -> str:
    if value not in choices:
        raise InputError(f"{what} '{value}' is not one of {list(choices)}")
    return value


def check_limits(limits, what: str) -> tuple[float, float]:
    """A (low, high) pair with 0 <= low <= high, finite."""
    low, high = as_vector(limits, 2, f"{what} limits")
    if not 0.0 <= low <= high:
        raise InputError(f"{what} limits ({low}, {high}) must satisfy 0 <= low <= high")
    return float(low), float(high)


def gain_vector(values, length: int, what: str, limits: tuple[float, float]) -> np.ndarray:
    """`values` (a scalar or `length` numbers) as a vector inside the closed `limits`."""
    if np.ndim(values) == 0:
        values = [values] * length
    vec = as_vector(values, length, what)
    low, high = limits
    bad = np.nonzero((vec < low) | (vec > high))[0]
    if bad.size:
        k = int(bad[0])
        raise InputError(f"{what}[{k}] = {vec[k]:g} is outside its limits [{low:g}, {high:g}]")
    return vec


def damping_from_ratio(stiffness: np.ndarray, ratio: np.ndarray) -> np.ndarray:
    """kd = 2 √kp · ζ (critical damping of a unit mass at ζ = 1)."""
    return 2.0 * np.sqrt(stiffness) * ratio


def split_command(command, target_size: int, axes: int, mode: str, what: str):
    """Split a flat command into (targets, stiffness or None, damping ratio or None).

    The command is `target_size` target numbers, then `GAIN_BLOCKS[mode]` blocks of `axes`.
    """
    blocks = GAIN_BLOCKS[mode]
    vec = as_vector(command, target_size + blocks * axes, f"{what} ({mode} mode)")
    targets = vec[:target_size]
    kp = vec[target_size:target_size + axes] if blocks >= 1 else None
    ratio = vec[target_size + axes:] if blocks >= 2 else None
    return targets, kp, ratio
