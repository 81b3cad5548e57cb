"""When and how the demo disturbs the palletizing run (ROS-free rules; the runner calls
the sim's perturb_object service with what `due()` returns).

drop   while the 3rd bin is lifted off the belt: make the suction let go (it falls back
       onto the belt's end, where the tree must notice and pick it again)
slot   while the 2nd bin is carried to the pallet: drag the last bin still waiting on the
       belt into the slot after it (the 3rd bin's slot), so the tree finds that slot taken
       and must skip it
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Sequence

from robot_tasks.tasks.palletizing.cell import DEFAULT_CELL

MODES = ("drop", "slot")
BELT_BIN_Z = 0.61        # a bin's centre resting on the belt
LIFTED_BY = 0.10


@dataclass
class PalletDisturbanceRule:
    """Arms on a phase event (with `count` bins placed), fires once the ground truth allows."""

    mode: str
    armed: bool = False
    fired: bool = False
    log: list[str] = field(default_factory=list)
    _placed: int = 0

    def __post_init__(self):
        if self.mode not in MODES:
            raise ValueError(f"disturbance '{self.mode}' is not one of {', '.join(MODES)}")

    def on_phase_start(self, phase: str, placed: int, now: float) -> None:
        if self.fired or self.armed:
            return
        if (self.mode == "drop" and phase == "lift" and placed == 2) or \
                (self.mode == "slot" and phase == "above_slot" and placed == 1):
            self.armed, self._placed = True, placed
            self.log.append(f"armed at {phase} with {placed} placed")

    def due(self, _now: float, positions: dict[str, Sequence[float]]) -> dict | None:
        if self.fired or not self.armed:
            return None
        if self.mode == "drop":
            carried = positions.get(f"bin_{self._placed}")
            if carried is None or carried[2] < BELT_BIN_Z + LIFTED_BY:
                return None
            self.fired = True
            return {"object_name": f"bin_{self._placed}", "mode": "DROP", "target": (0.0, 0.0, 0.0)}
        waiting = sorted((n for n in positions if n.startswith("bin_") and abs(positions[n][1] - 0.8) < 0.15
                          and positions[n][0] < 0.0), key=lambda n: int(n.split("_")[1]))
        if not waiting:
            return None
        self.fired = True
        slot = self._placed + 1
        x, y, z = DEFAULT_CELL.slot_center(slot)
        self.log.append(f"{waiting[-1]} dragged into slot {slot}")
        return {"object_name": waiting[-1], "mode": "DRAG", "target": (x, y, z + 0.002)}
