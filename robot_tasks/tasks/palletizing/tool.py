"""Suction-tool orientations as quaternions (x, y, z, w) in the world frame.

The tool frame's z axis is the direction the cup points (into the face it grips).
`cup_down(yaw)` points it straight down, turned `yaw` about world z (the tool's x axis
then lies along (cos yaw, sin yaw, 0)): it is a half turn about x, then yaw about z, so
the quaternion is (cos(yaw/2), sin(yaw/2), 0, 0). `cup_along_y(sign)` points the cup
horizontally along +y (sign=+1) or -y (sign=-1): a quarter turn about x.
`cup_onto(normal, yaw)` points it against a face whose outward normal is `normal` (a bin
lying tilted): `cup_down(yaw)` tipped by the shortest rotation that takes world z to
`normal`, so for a level face it is `cup_down(yaw)` itself.
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


def cup_onto(normal, yaw: float = 0.0) -> Quat:
    """The cup pointing along -normal (onto a face with that outward, upward normal)."""
    nx, ny, nz = (float(v) for v in normal)
    length = math.sqrt(nx * nx + ny * ny + nz * nz)
    if not (math.isfinite(length) and length > 0 and nz > 0):
        raise ValueError(f"face normal {normal} must be finite and point up")
    nx, ny, nz = nx / length, ny / length, nz / length
    sin_tilt = math.hypot(nx, ny)          # |z x n|
    if sin_tilt < 1e-9:
        return cup_down(yaw)
    tilt = math.atan2(sin_tilt, nz)
    s = math.sin(tilt / 2) / sin_tilt      # the axis z x n = (-ny, nx, 0), normalised, times sin(tilt/2)
    return multiply((-ny * s, nx * s, 0.0, math.cos(tilt / 2)), cup_down(yaw))


def multiply(a: Quat, b: Quat) -> Quat:
    """The rotation b, then a (Hamilton product a * b, both (x, y, z, w))."""
    ax, ay, az, aw = a
    bx, by, bz, bw = b
    return (aw * bx + ax * bw + ay * bz - az * by,
            aw * by - ax * bz + ay * bw + az * bx,
            aw * bz + ax * by - ay * bx + az * bw,
            aw * bw - ax * bx - ay * by - az * bz)


def z_axis(q: Quat) -> tuple[float, float, float]:
    """World direction of a frame's z axis for quaternion q."""
    x, y, z, w = q
    return (2 * (x * z + w * y), 2 * (y * z - w * x), 1 - 2 * (x * x + y * y))


def cup_direction(q: Quat) -> tuple[float, float, float]:
    """World direction of the tool's z axis (where the cup points) for quaternion q."""
    return z_axis(q)


def fold_yaw(yaw: float) -> float:
    """A box looks the same turned by half a turn: fold yaw into [-pi/2, pi/2)."""
    return (yaw + math.pi / 2) % math.pi - math.pi / 2
