"""When and how the demo disturbs the stacking run (ROS-free rules; the runner calls the
sim's perturb_object service with what `due()` returns).

drag   while the arm heads for the 2nd cube (blue, pre-grasp): move it 12+ cm to a free spot
drop   while the 3rd cube (green) is carried to the stack: make the gripper let go
knock  while the 3rd cube (green) is carried: push the 2nd cube (blue) off the stack
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import ClassVar, Sequence

from robot_tasks.tasks.episode import DisturbanceRule, positions_of
from robot_tasks.tasks.stacking.plan import DEFAULT_ORDER as ORDER
from robot_tasks.tasks.table_spots import free_spot

MODES = ("drag", "drop", "knock")
# Sim seconds from the arming phase's start (the runner passes sim time: the same at any rtf).
DEFAULT_DELAY_S = {"drag": 0.3, "drop": 0.0, "knock": 0.0}
# drop and knock also wait for the carried cube to be lifted and still away from the stack
# (ground truth): a drop over the stack lands the cube on it (a stack-validity case, not a
# drop), and a knock after the release is never seen while holding. A delay alone
# drifted past that window on a loaded CI machine.
CUBE_REST_Z = 0.65              # a 5 cm cube's centre on the table (TABLE_TOP_Z + 0.025)
LIFTED_BY = 0.03
AWAY_FROM_STACK = 0.08


def carried_away_from_stack(positions: dict[str, Sequence[float]]) -> bool:
    """The 3rd cube is in the air and >= AWAY_FROM_STACK from the stack's base, sideways."""
    carried, base = positions.get(ORDER[2]), positions.get(ORDER[0])
    if carried is None or base is None:
        return False
    return carried[2] >= CUBE_REST_Z + LIFTED_BY and \
        math.hypot(carried[0] - base[0], carried[1] - base[1]) >= AWAY_FROM_STACK


@dataclass
class StackingDisturbanceRule(DisturbanceRule):
    """Arms on a phase event, fires once after `delay_s` (sim seconds)."""

    task: ClassVar[str] = "franka_stacking"
    modes: ClassVar[tuple[str, ...]] = MODES
    delay_s: float | None = None       # None: the mode's default (DEFAULT_DELAY_S)
    armed_at: float | None = None

    def __post_init__(self):
        super().__post_init__()
        if self.delay_s is None:
            self.delay_s = DEFAULT_DELAY_S[self.mode]

    def on_phase_start(self, phase: str, stacked: int, now: float) -> None:
        """Called when a phase leaf starts RUNNING; `stacked` = cubes released on the stack."""
        if self.fired or self.armed_at is not None:
            return
        if (self.mode == "drag" and phase == "pre_grasp" and stacked == 1) or \
                (self.mode in ("drop", "knock") and phase == "transport" and stacked == 2):
            self.armed_at = now
            self.log.append(f"armed at {phase} with {stacked} stacked")

    def due(self, now: float, poses: dict[str, tuple]) -> dict | None:
        """The PerturbObject request to send now ({object_name, mode, target xyz}), or None;
        `poses` is the sim's ground truth, {name: ((x, y, z), (qx, qy, qz, qw))}."""
        positions = positions_of(poses)
        if self.fired or self.armed_at is None or now - self.armed_at < self.delay_s:
            return None
        if self.mode in ("drop", "knock") and not carried_away_from_stack(positions):
            return None
        self.fired = True
        if self.mode == "drop":
            x, y, z = positions[ORDER[2]]
            self.log.append(f"drop {ORDER[2]} at ({x:.3f}, {y:.3f}, {z:.3f})")
            return {"object_name": ORDER[2], "mode": "DROP", "target": (0.0, 0.0, 0.0)}
        cube = ORDER[1]
        here = positions.get(cube)
        if here is None:
            self.log.append(f"{cube} not in the ground truth: nothing to do")
            return None
        if self.mode == "drag":
            others = {k: v for k, v in positions.items() if k != cube}
            spot = free_spot(others.values(), here)
            if spot is None:
                self.log.append("no free spot to drag to")
                return None
            return {"object_name": cube, "mode": "DRAG", "target": (spot[0], spot[1], here[2])}
        side = -1.0 if here[1] > 0 else 1.0          # push toward the middle of the table
        # a gentle push (0.15 m in KNOCK_TIME): off the stack, but not off the table
        return {"object_name": cube, "mode": "KNOCK", "target": (here[0], here[1] + 0.15 * side, here[2])}
