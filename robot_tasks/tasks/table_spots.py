"""Free places on the table: where a cube can be put down (or dragged to) without
touching another one. Plain geometry on (x, y) positions; no ROS, no simulator."""
from __future__ import annotations

import math
from typing import Iterable, Sequence

# The Panda reaches a top-down grasp comfortably inside this box (world x, y) [m]; it
# matches where the franka_stacking scene spawns its cubes.
REACH_X = (0.32, 0.68)
REACH_Y = (-0.32, 0.32)
RING_RADII = (0.12, 0.15, 0.18, 0.22, 0.27)
RING_STEPS = 16


def free_spot(occupied: Iterable[Sequence[float]], near: Sequence[float], clearance: float = 0.12,
              x_range=REACH_X, y_range=REACH_Y) -> tuple[float, float] | None:
    """A spot >= `clearance` from every occupied (x, y[, z]), as close to `near` as found
    (rings of growing radius around it), inside the reach box; None if there is none."""
    others = [(p[0], p[1]) for p in occupied]
    for radius in RING_RADII:
        for k in range(RING_STEPS):
            a = 2 * math.pi * k / RING_STEPS
            x, y = near[0] + radius * math.cos(a), near[1] + radius * math.sin(a)
            if x_range[0] <= x <= x_range[1] and y_range[0] <= y <= y_range[1] and \
                    all(math.hypot(x - ox, y - oy) >= clearance for ox, oy in others):
                return (x, y)
    return None
