"""Ground-truth poses as the demo runner hands them to a disturbance rule, for tests.

The runner gives `rule.due(now, poses)` the sim's objects as {name: ((x, y, z), (qx, qy,
qz, qw))}; most tests only care where things are, so `level(positions)` stands each one
level (identity orientation) at its position.
"""
from __future__ import annotations

IDENTITY = (0.0, 0.0, 0.0, 1.0)


def level(positions: dict) -> dict:
    """{name: (x, y, z)} -> {name: ((x, y, z), identity quaternion)}."""
    return {name: (tuple(xyz), IDENTITY) for name, xyz in positions.items()}
