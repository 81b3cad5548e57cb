"""Suction-tool orientations as quaternions (x, y, z, w) in the world frame.

The tool frame's z axis is the direction the cup points (into the face it grips).
`cup_down(yaw)` points it straight down, turned `yaw` about world z (the tool's x axis
then lies along (cos yaw, sin yaw, 0)): it is a half turn about x, then yaw about z, so
the quaternion is (cos(yaw/2), sin(yaw/2), 0, 0). `cup_along_y(sign)` points the cup
horizontally along +y (sign=+1) or -y (sign=-1): a quarter turn about x.
"""
from __future__ import annotations

import math

Quat = tuple[float, float, float, float]


def cup_down(yaw: float = 0.0) -> Quat:
    return (math.cos(yaw / 2), math.sin(yaw / 2), 0.0, 0.0)


def cup_along_y(sign: int) -> Quat:
    if sign not in (1, -1):
        raise ValueError(f"sign must be +1 or -1, got {sign}")
    s = math.sqrt(0.5)
    return (-sign * s, 0.0, 0.0, s)


def cup_direction(q: Quat) -> tuple[float, float, float]:
    """World direction of the tool's z axis (where the cup points) for quaternion q."""
    x, y, z, w = q
    return (2 * (x * z + w * y), 2 * (y * z - w * x), 1 - 2 * (x * x + y * y))


def fold_yaw(yaw: float) -> float:
    """A box looks the same turned by half a turn: fold yaw into [-pi/2, pi/2)."""
    return (yaw + math.pi / 2) % math.pi - math.pi / 2
