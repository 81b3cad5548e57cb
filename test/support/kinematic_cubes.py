"""What gravity does to a released cube in the kinematic fake worlds of the task tests.

Shared by test/tasks/stacking_fake_world.py and test/tasks/pyramid/pyramid_fake_cell.py:
no physics, a cube simply falls straight down onto the table or the highest cube under it.
"""
from __future__ import annotations

import numpy as np


def settle(cubes: dict, name: str, table_z: float, size: float) -> None:
    """Let cube `name` (centre positions in `cubes`, changed in place) fall straight down."""
    pos = cubes[name]
    support = table_z
    for other, q in cubes.items():
        if other != name and q[2] < pos[2] and np.all(np.abs(q[:2] - pos[:2]) < size * 0.9):
            support = max(support, q[2] + size / 2)
    pos[2] = support + size / 2
