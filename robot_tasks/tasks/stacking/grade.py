"""Whether the cubes stand as one straight stack, from the sim's ground truth.

A cube is on its level when its centre is over the centre of the cube below it (closer
than half a cube: beyond that it could not rest there) and at that level's height; the
bottom cube only has to stand on the table. Ground truth grades a run; it never steers one.
"""
from __future__ import annotations

from typing import Sequence

from robot_tasks.robots import TABLE_TOP_Z
from robot_tasks.tasks.stacking.plan import DEFAULT_ORDER

CUBE = 0.05
XY_TOLERANCE = 0.025  # m between a cube's centre and the one below: beyond half a cube it can't rest on it
Z_TOLERANCE = 0.01    # m from the level's height


def judge_stack(positions: dict[str, Sequence[float]], order: Sequence[str] = DEFAULT_ORDER,
                table_z: float = TABLE_TOP_Z, cube: float = CUBE) -> list[dict]:
    """Per cube: where it is, which level it should be on, and whether it is there
    (centred on the cube below it, at the level's height; the bottom one on the table)."""
    results = []
    for level, name in enumerate(order):
        pos = positions.get(name)
        base = positions.get(order[level - 1]) if level > 0 else pos
        entry = {"cube": name, "level": level, "position": [round(float(v), 4) for v in pos] if pos else None}
        if pos is None:
            entry.update(ok=False, reason="not in the scene")
        elif base is None:
            entry.update(ok=False, reason="the cube below it is not in the scene")
        else:
            dxy = ((pos[0] - base[0]) ** 2 + (pos[1] - base[1]) ** 2) ** 0.5
            dz = pos[2] - (table_z + cube * (level + 0.5))
            entry.update(ok=bool(dxy <= XY_TOLERANCE and abs(dz) <= Z_TOLERANCE),
                         xy_offset=round(dxy, 4), z_offset=round(dz, 4))
        results.append(entry)
    return results
