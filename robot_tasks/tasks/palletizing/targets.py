"""Tool poses for each step of the palletizing task (pure geometry, world frame).

A suction cup grips a flat face, so where the tool goes depends on which face is up:

* upright bin (open top up): the cup reaches inside onto the floor, `wall` above the
  bin's bottom; the bin then hangs from the tool with its walls around it;
* upside-down bin: the cup grips the closed bottom, which now faces up, at the bin's top.

Every reach is a *corridor*: a pose straight above (or beside) the target, then a
straight slide along one axis into contact, so the tool never sweeps sideways into a
bin, the belt or the pallet. `PRESS` is how far past the face the cup is aimed so it
touches for certain.

The flip station turns an upside-down bin over in two grips, each a quarter turn:
1. carried by its bottom, the bin is turned so the cup points along -y and laid on
   its side on the jig's plate: its open face now looks along -y;
2. the cup comes in through the open face, along +y, onto the inner floor, grips, lifts
   and turns down again: a second quarter turn, and the bin hangs upright -- held
   from inside as if it had been picked upright. The jig does not hold the bin; the
   plate just carries it between the two grips.
Poses are dicts {x, y, z, qx, qy, qz, qw}, what MoveToPose's `pose` port reads.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

from .cell import Cell
from .tool import Quat, cup_along_y, cup_down, cup_onto

PRESS = 0.004            # m past the face, so the cup touches
RELEASE_GAP = 0.005      # m between a carried bin's bottom and the surface it is let go over
ABOVE = 0.15             # m of the vertical corridor above a pick
PLACE_ABOVE = 0.30       # m of the vertical corridor above a slot
LIFT_AFTER_RELEASE = 0.10


def pose(xyz, q: Quat) -> dict:
    return {"x": float(xyz[0]), "y": float(xyz[1]), "z": float(xyz[2]),
            "qx": q[0], "qy": q[1], "qz": q[2], "qw": q[3]}


def _plus(a, b):
    return tuple(float(u) + float(v) for u, v in zip(a, b))


@dataclass(frozen=True)
class PickTargets:
    above: dict          # corridor start, straight above the face
    grip: dict           # on the face (PRESS into it)
    lift: dict           # straight up after the grip


def pick_targets(center, yaw: float, upside_down: bool, cell: Cell, lift: float,
                 up=(0.0, 0.0, 1.0)) -> PickTargets:
    """Reach onto the bin's floor: inside it if upright, its outside if upside down.

    `up` is the normal of the bin's face that looks up. Flat, the corridor is vertical; a
    bin lying tilted is approached along its normal, so the cup sits square on the floor
    and the bin hangs from the tool exactly as a flat one would. The lift is straight up
    with the cup turned down again: the bin levels out as it comes off whatever it leans on.
    """
    b = cell.bin
    n = tuple(float(v) / math.sqrt(sum(u * u for u in up)) for v in up)
    depth = -b.height / 2 if upside_down else b.height / 2 - b.wall     # centre -> face, against n
    grip = tuple(c - (depth + PRESS) * k for c, k in zip(center, n))
    q = cup_onto(n, yaw)
    above = tuple(g + ABOVE * k for g, k in zip(grip, n))
    return PickTargets(pose(above, q), pose(grip, q), pose(_plus(grip, (0, 0, lift)), cup_down(yaw)))


@dataclass(frozen=True)
class FlipTargets:
    lay_above: dict      # cup along -y, the bin (by its bottom) hanging beside it, above the plate
    lay: dict            # the bin's lower side just above the plate
    lay_retreat: dict    # back off along +y, away from the bin's bottom
    lay_clear: dict      # and up, out of the way
    regrip_above: dict   # cup along +y, high on the open face's side
    regrip_mouth: dict   # level with the bin's middle, in front of its open face
    regrip: dict         # on the inner floor (PRESS into it)
    regrip_lift: dict    # straight up, the bin still on its side
    upright: dict        # cup down again: the bin hangs upright


def flip_targets(cell: Cell) -> FlipTargets:
    """Poses of both quarter turns at the jig (see the module docstring)."""
    b = cell.bin
    jx, jy = cell.jig_center
    # laid on its side (open face along -y) the bin's width stands up: its centre
    center = (jx, jy, cell.jig_top + b.width / 2 + RELEASE_GAP)
    side, into = cup_along_y(-1), cup_along_y(+1)
    bottom_face = _plus(center, (0, b.height / 2, 0))    # the cup, holding the outside of the floor
    inner_floor = _plus(center, (0, b.height / 2 - b.wall + PRESS, 0))
    return FlipTargets(
        lay_above=pose(_plus(bottom_face, (0, 0, ABOVE)), side),
        lay=pose(bottom_face, side),
        lay_retreat=pose(_plus(bottom_face, (0, ABOVE, 0)), side),
        lay_clear=pose(_plus(bottom_face, (0, ABOVE, 0.35)), side),
        regrip_above=pose(_plus(center, (0, -0.40, 0.35)), into),
        regrip_mouth=pose(_plus(center, (0, -0.30, 0)), into),
        regrip=pose(inner_floor, into),
        regrip_lift=pose(_plus(inner_floor, (0, 0, 0.10)), into),
        upright=pose(_plus(inner_floor, (0.10, 0, 0.25)), cup_down(0.0)),
    )


@dataclass(frozen=True)
class PlaceTargets:
    above: dict          # corridor start above the slot
    place: dict          # the bin's bottom RELEASE_GAP above the pallet
    lift: dict           # straight up after the release


def place_targets(cell: Cell, slot: int) -> PlaceTargets:
    """An upright bin held from inside (tool at its inner floor) into slot `slot`, yaw 0."""
    b = cell.bin
    x, y, z = cell.slot_center(slot)
    tool = (x, y, z - b.height / 2 + b.wall + RELEASE_GAP)
    q = cup_down(0.0)
    return PlaceTargets(pose(_plus(tool, (0, 0, PLACE_ABOVE)), q), pose(tool, q),
                        pose(_plus(tool, (0, 0, LIFT_AFTER_RELEASE)), q))
