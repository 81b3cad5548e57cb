"""When the demo makes the banana_bowl expert lose its object (a ROS-free rule; the runner
calls the sim's perturb_object service with what `due()` returns).

drop   during the lift, once the object is off the table in the hand: the fingers let go,
       as when an object slips out of a grasp. The grasp was judged good
       when the fingers closed, so only the tree's hold check above the bowl can notice;
       it lets go, goes home and picks the object again from where it fell.

The rule reads the sim's ground truth only to choose its moment (the object lifted), never
to steer the tree.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import ClassVar

from robot_tasks.tasks.episode import DisturbanceRule

MODES = ("drop",)
# Off the table and in the hand: this far [m] above where the object first lay. Armed at the
# lift, not the carry: the request reaches the sim tens of ms of wall time later, and at rtf 0
# a carry covers much of its way in that time (a drop meant for the carry's start landed the
# banana in the bowl); during the lift the object still falls back near where it lay.
LIFTED_BY = 0.05


@dataclass
class SlipRule(DisturbanceRule):
    """Armed when the first `lift` starts; fires once, when the picked object (whichever of
    `objects` the scene has) is LIFTED_BY above the lowest it was seen before that."""

    task: ClassVar[str] = "banana_bowl"
    modes: ClassVar[tuple[str, ...]] = MODES
    mode: str = "drop"
    objects: tuple[str, ...] = ()
    armed_at: float | None = None
    rest_z: dict = field(default_factory=dict)

    def on_phase_start(self, phase: str, released: int, now: float) -> None:
        if self.armed_at is None and not self.fired and phase == "lift" and released == 0:
            self.armed_at = now
            self.log.append(f"armed at {phase} ({now:.2f} s)")

    def due(self, now: float, poses: dict[str, tuple]) -> dict | None:
        """The DROP request once the object is lifted after arming, else None; `poses` is the
        ground truth {name: ((x, y, z), (qx, qy, qz, qw))}."""
        held = [name for name in self.objects if name in poses]
        if self.armed_at is None:       # where it lies: the lowest it was seen before the carry
            for name in held:
                self.rest_z[name] = min(self.rest_z.get(name, poses[name][0][2]), poses[name][0][2])
        if self.fired or self.armed_at is None or not held:
            return None
        name = held[0]
        height = poses[name][0][2] - self.rest_z[name]
        if height < LIFTED_BY:
            return None
        self.fired = True
        self.log.append(f"drop {name} {height * 100:.1f} cm above where it lay ({now:.2f} s)")
        return {"object_name": name, "mode": "DROP", "target": (0.0, 0.0, 0.0)}
