"""The palletizing cell as the task sees it: where bins are picked, turned and put down.

A cell is fixed furniture: the conveyor's end where a bin waits, a flip-station jig
(a plate to lay a bin on its side), and a pallet of 3 x 3 slots. These numbers are the
task's knowledge of its workplace, like a taught point on a real robot; they match the
`ur10_palletizing` scene (test/tasks/palletizing/test_cell.py keeps them in step). What
moves -- the bins -- the task learns only from perception.

Slots are numbered row by row as the scene names them (`pallet_slot_0` .. `_8`):
slot k sits at column k % 3 (x: -dx, 0, +dx) and row k // 3 (y: +dy, 0, -dy) around the
pallet's centre.
"""
from __future__ import annotations

from dataclasses import dataclass

Vec3 = tuple[float, float, float]


@dataclass(frozen=True)
class BinShape:
    """An open-top bin: outer length (x), width (y), height (z) and wall/floor thickness [m]."""

    length: float = 0.30
    width: float = 0.20
    height: float = 0.12
    wall: float = 0.008


@dataclass(frozen=True)
class Cell:
    """Fixed places of the cell, world frame [m]."""

    pickup_xy: tuple[float, float] = (0.298, 0.80)     # a bin's centre when it waits at the belt's stop
    pickup_tolerance: float = 0.08                     # a bin's centre this close counts as waiting there
    pallet_center: tuple[float, float] = (0.0, -0.80)
    pallet_top: float = 0.14
    slot_dx: float = 0.32
    slot_dy: float = 0.22
    jig_center: tuple[float, float] = (-0.75, 0.0)
    jig_top: float = 0.45
    bin: BinShape = BinShape()

    @property
    def slot_count(self) -> int:
        return 9

    def slot_center(self, index: int) -> Vec3:
        """Where the centre of an upright bin in slot `index` is (0..8)."""
        if not 0 <= index < self.slot_count:
            raise ValueError(f"slot index {index} is not in 0..{self.slot_count - 1}")
        column, row = index % 3, index // 3
        x = self.pallet_center[0] + (column - 1) * self.slot_dx
        y = self.pallet_center[1] - (row - 1) * self.slot_dy
        return (x, y, self.pallet_top + self.bin.height / 2)


DEFAULT_CELL = Cell()
