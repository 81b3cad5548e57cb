"""When and how the demo disturbs the palletizing run (ROS-free rules; the runner calls
the sim's perturb_object service with what `due()` returns).

drop   while the 3rd bin is lifted off the belt and still above the belt's end: make the
       suction let go (it falls back onto the belt's end, where the tree must notice and pick
       it again). Should that moment pass (the ground truth is read at the runner's pace, and
       at rtf 0 the sim moves on meanwhile: a drop on the way to the jig lost the bin on the
       floor), the next bin lifted there is dropped instead, so a drop means the same at
       any speed.
slot   while the 2nd bin is carried to the pallet: drag the last bin still waiting on the
       belt into the slot after it (the 3rd bin's slot), so the tree finds that slot taken
       and must skip it
tilt   as soon as the tree has seen the 3rd bin arrive at the belt's end (its first
       "pickup:" log line; it then pauses the belt and looks again 1 s later): lay that
       bin down with its front end up on the stop's edge, 16 deg from flat, the way a
       dropped bin can come to rest (bench drop seed 16). It keeps its side up, so the
       tree must see the tilt on its second look, reach along the face's normal and still
       route it. (Not while the belt runs: the next bin would shove it over the stop.)
"""
from __future__ import annotations

import math
import re
from dataclasses import dataclass, field
from typing import ClassVar, Sequence

from robot_tasks.tasks.episode import DisturbanceRule, positions_of
from robot_tasks.tasks.palletizing.cell import DEFAULT_CELL
from robot_tasks.tasks.palletizing.grade import up_component
from robot_tasks.tasks.palletizing.tool import multiply

MODES = ("drop", "slot", "tilt")
BELT_BIN_Z = 0.61        # a bin's centre resting on the belt
LIFTED_BY = 0.10
OVER_THE_STOP = 0.12     # m: a lifted bin this close to the pickup point (sideways) still falls on the belt
ON_BELT_Y = 0.15         # a bin this close to the belt's centre line (sideways) is on the belt
# The tilted pose: 3 cm above where it settles (z 0.649) with its front on the stop, nose up.
TILT_AT = (0.32, 0.80, 0.68)
TILT_PITCH = math.radians(-16.0)
HALF_TURN_ABOUT_X = (1.0, 0.0, 0.0, 0.0)        # how a bin lies upside down
ARMING = {"drop": ("lift", 2), "slot": ("above_slot", 1)}     # phase, bins placed
TILT_AFTER_SLOTS = 2                                          # tilt the bin after this many slots filled
PICKUP_LINE = re.compile(r"\bpickup: bin at ")
PLACE_LINE = re.compile(r"\bplace: slot (\d+)")


def tilted_on_the_stop(upside_down: bool) -> tuple[float, float, float, float]:
    """Quaternion (x, y, z, w) of a bin pitched by TILT_PITCH about world y, after its own
    half turn about x when it lies upside down: q_y(pitch) * q_x(pi) or q_y(pitch)."""
    pitched = (0.0, math.sin(TILT_PITCH / 2), 0.0, math.cos(TILT_PITCH / 2))
    return multiply(pitched, HALF_TURN_ABOUT_X) if upside_down else pitched


@dataclass
class PalletDisturbanceRule(DisturbanceRule):
    """Arms on a phase event (with `count` bins placed), fires once the ground truth allows."""

    task: ClassVar[str] = "ur10_palletizing"
    modes: ClassVar[tuple[str, ...]] = MODES
    armed: bool = False
    _placed: int = 0
    _slots_logged: set = field(default_factory=set)   # tilt: slots the tree said it places into
    _read: int = 0                                     # task-log lines read so far

    def on_phase_start(self, phase: str, placed: int, now: float) -> None:
        if self.fired or self.armed:
            return
        if (phase, placed) == ARMING.get(self.mode):
            self.armed, self._placed = True, placed
            self.log.append(f"armed at {phase} with {placed} placed")

    def on_task_log(self, lines: Sequence[str], _now: float) -> None:
        """tilt arms on the tree's own words: the first pickup line after two placements."""
        if self.mode != "tilt" or self.armed or self.fired:
            self._read = len(lines)
            return
        for line in lines[self._read:]:
            if (place := PLACE_LINE.search(line)):
                self._slots_logged.add(int(place.group(1)))
            elif PICKUP_LINE.search(line) and len(self._slots_logged) == TILT_AFTER_SLOTS:
                self.armed = True
                self.log.append(f"armed at the first sight of a bin with {TILT_AFTER_SLOTS} slots placed")
                break
        self._read = len(lines)

    def due(self, _now: float, poses: dict[str, tuple]) -> dict | None:
        """The PerturbObject request to send now, or None; `poses` is the sim's ground
        truth, {name: ((x, y, z), (qx, qy, qz, qw))}."""
        if self.fired or not self.armed:
            return None
        positions = positions_of(poses)
        if self.mode == "drop":
            lifted = [name for name, (x, y, z) in positions.items() if name.startswith("bin_")
                      and z >= BELT_BIN_Z + LIFTED_BY and math.dist((x, y), DEFAULT_CELL.pickup_xy) <= OVER_THE_STOP]
            if not lifted:
                return None
            self.fired = True
            if lifted[0] != f"bin_{self._placed}":
                self.log.append(f"bin_{self._placed} left the belt's end before the drop: dropping {lifted[0]}")
            return {"object_name": lifted[0], "mode": "DROP", "target": (0.0, 0.0, 0.0)}
        on_belt = [n for n in positions if n.startswith("bin_") and abs(positions[n][1] - DEFAULT_CELL.pickup_xy[1])
                   < ON_BELT_Y and positions[n][2] < BELT_BIN_Z + 0.05]
        if self.mode == "tilt":
            self.fired = True
            front = max(on_belt, key=lambda n: positions[n][0], default=None)
            if front is None or math.dist(positions[front][:2], DEFAULT_CELL.pickup_xy) > DEFAULT_CELL.pickup_tolerance:
                self.log.append("no bin waits at the belt's end: nothing tilted")
                return None
            upside_down = up_component(poses[front][1]) < 0.0
            self.log.append(f"{front} laid on the stop {math.degrees(-TILT_PITCH):.0f} deg from flat, "
                            f"{'upside down' if upside_down else 'upright'}")
            return {"object_name": front, "mode": "DRAG", "target": TILT_AT,
                    "orientation": tilted_on_the_stop(upside_down)}
        waiting = sorted((n for n in on_belt if positions[n][0] < 0.0), key=lambda n: int(n.split("_")[1]))
        if not waiting:
            return None
        self.fired = True
        slot = self._placed + 1
        x, y, z = DEFAULT_CELL.slot_center(slot)
        self.log.append(f"{waiting[-1]} dragged into slot {slot}")
        return {"object_name": waiting[-1], "mode": "DRAG", "target": (x, y, z + 0.002)}
