"""Grade a finished palletizing run from the sim's ground truth (ROS-free).

Ground truth is fine here: it grades the run, it never steers it. A bin is correct when
it stands upright (its z axis within ~25 degrees of world up) in a pallet slot -- centre
within XY_TOLERANCE of the slot's, at the slot's height -- that no other bin shares. The
run is correct when all nine slots hold one correct bin each.
"""
from __future__ import annotations

import math
from typing import Sequence

from robot_tasks.tasks.palletizing.cell import DEFAULT_CELL, Cell
from robot_tasks.tasks.palletizing.tool import fold_yaw
from robot_tasks.tasks.world_view import yaw_from_quaternion

XY_TOLERANCE = 0.05   # m: a 30 cm bin in a 32 cm pitch touches its neighbour long before this
Z_TOLERANCE = 0.02    # m from the slot's resting height
UPRIGHT_COS = 0.9     # world-z component of the bin's z axis


def up_component(q: Sequence[float]) -> float:
    """World z component of a body's z axis, for quaternion (x, y, z, w)."""
    x, y = q[0], q[1]
    return 1.0 - 2.0 * (x * x + y * y)


def nearest_slot(position, cell: Cell) -> tuple[int, float]:
    """(slot index, xy distance) of the slot centre nearest to `position`."""
    return min(((k, math.hypot(position[0] - cell.slot_center(k)[0], position[1] - cell.slot_center(k)[1]))
                for k in range(cell.slot_count)), key=lambda item: item[1])


def in_slot(position, slot: int, cell: Cell) -> bool:
    """The bin centre at `position` rests in `slot` (within XY_TOLERANCE and Z_TOLERANCE)."""
    centre = cell.slot_center(slot)
    return (math.hypot(position[0] - centre[0], position[1] - centre[1]) <= XY_TOLERANCE
            and abs(position[2] - centre[2]) <= Z_TOLERANCE)


def placed_time(name: str, slot: int | None, releases: Sequence, cell: Cell) -> float | None:
    """Sim time of the release from which `name` stayed in its final `slot` (None if never).

    `releases` are the run's Counted events (time, every position then). A bin set down,
    then dragged off and placed again, is timed by its last placing; one that a
    disturbance put into a slot, by the first release after it arrived.
    """
    if slot is None:
        return None
    since = None
    for release in releases:
        position = release.positions.get(name)
        if position is not None and in_slot(position, slot, cell):
            since = release.sim_time if since is None else since
        else:
            since = None
    return since


def judge_pallet(poses: dict, first_poses: dict, releases: Sequence = (),
                 cell: Cell = DEFAULT_CELL) -> list[dict]:
    """One row per bin (bin_0, bin_1, ... in delivery order): slot, upright, xy and yaw error,
    flipped (it arrived upside down), time (sim s of its release into its final slot, from
    the run's Counted `releases`), ok."""
    names = sorted((n for n in poses if n.startswith("bin_")), key=lambda n: int(n.split("_")[1]))
    rows = []
    for name in names:
        (position, q) = poses[name]
        slot, dxy = nearest_slot(position, cell)
        dz = position[2] - cell.slot_center(slot)[2]
        resting_in = slot if in_slot(position, slot, cell) else None
        first = first_poses.get(name, poses[name])
        rows.append({
            "bin": name, "slot": resting_in,
            "upright": bool(up_component(q) >= UPRIGHT_COS),
            "xy_error": round(dxy, 4), "z_error": round(dz, 4),
            "yaw_error": round(abs(fold_yaw(yaw_from_quaternion(*q))), 4),
            "flipped": bool(up_component(first[1]) < -UPRIGHT_COS),
            "time": placed_time(name, resting_in, releases, cell),
            "position": [round(float(v), 4) for v in position]})
    taken = [r["slot"] for r in rows if r["slot"] is not None]
    for row in rows:
        row["ok"] = bool(row["slot"] is not None and row["upright"] and taken.count(row["slot"]) == 1)
    return rows


def pallet_complete(rows: list[dict], cell: Cell = DEFAULT_CELL) -> bool:
    """Every slot holds exactly one correct bin."""
    return sorted(r["slot"] for r in rows if r["ok"]) == list(range(cell.slot_count))
