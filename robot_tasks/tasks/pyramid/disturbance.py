"""When and how the demo disturbs the pyramid run (ROS-free; the runner calls the sim's
perturb_object service with what `due()` returns).

drag  panda_1's second cube, just after panda_1 took the center lock for it (its approach
      has begun): moved 12+ cm to a free spot on the table, at rest
drop  panda_2's second cube, just after panda_2 lifted it and left the center: its
      fingers open mid-carry

The rule learns which cube a robot reserved, and when it took or left the center, from
the tree executor's log lines (`reserve: panda_1 -> red_cube`, `lock: panda_1 enters the
center`, `unlock: ...`), which the runner hands to `on_task_log`.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import ClassVar, Sequence

from robot_tasks.robots import TABLE_TOP_Z
from robot_tasks.tasks.episode import DisturbanceRule, positions_of
from robot_tasks.tasks.table_spots import free_spot

MODES = ("drag", "drop")
DELAY_S = {"drag": 0.5, "drop": 0.8}      # sim s after the arming log line
ARMING = {"drag": ("panda_1", "lock", 2), "drop": ("panda_2", "unlock", 2)}   # robot, event, its n-th time
GOALS = ((0.46, 0.28), (0.54, -0.28))      # keep the dragged cube off both stacks' places
DRAG_X, DRAG_Y = (0.38, 0.62), (-0.22, 0.22)   # >= 0.38 m from either base: no straight-line trouble
LINE = re.compile(r"(reserve|lock|unlock): (\w+)(?: -> (\w+)| enters the center| leaves the center)")


@dataclass
class PyramidDisturbanceRule(DisturbanceRule):
    task: ClassVar[str] = "franka_pyramid"
    modes: ClassVar[tuple[str, ...]] = MODES
    reserved: dict = field(default_factory=dict)      # robot -> cube it reserved last
    counts: dict = field(default_factory=dict)        # (robot, event) -> times seen
    armed_at: float | None = None
    target_cube: str | None = None
    read: int = 0

    def on_phase_start(self, phase: str, counted: int, now: float) -> None:
        """The runner's phase hook: this rule arms on log lines instead."""

    def on_task_log(self, lines: Sequence[str], now: float) -> None:
        """Read the executor's log lines not read yet."""
        for line in lines[self.read:]:
            match = LINE.search(line)
            if match is None:
                continue
            event, robot, cube = match.groups()
            if event == "reserve":
                self.reserved[robot] = cube
                continue
            key = (robot, event)
            self.counts[key] = self.counts.get(key, 0) + 1
            arm_robot, arm_event, nth = ARMING[self.mode]
            if self.armed_at is None and (robot, event) == (arm_robot, arm_event) and self.counts[key] == nth:
                self.armed_at, self.target_cube = now, self.reserved.get(robot)
                self.log.append(f"armed at {robot}'s {event} #{nth} (its cube: {self.target_cube})")
        self.read = len(lines)

    def due(self, now: float, poses: dict[str, tuple]) -> dict | None:
        """The PerturbObject request to send now ({object_name, mode, target xyz}), or None;
        `poses` is the sim's ground truth, {name: ((x, y, z), (qx, qy, qz, qw))}."""
        positions = positions_of(poses)
        if self.fired or self.armed_at is None or now - self.armed_at < DELAY_S[self.mode]:
            return None
        self.fired = True
        cube = self.target_cube
        here = positions.get(cube) if cube else None
        if here is None:
            self.log.append(f"{cube} not in the ground truth: nothing to do")
            return None
        if self.mode == "drop":          # where it falls from: a drop that ends off the table shows here
            self.log.append(f"drop {cube} at ({here[0]:.3f}, {here[1]:.3f}, {here[2]:.3f})")
            return {"object_name": cube, "mode": "DROP", "target": (0.0, 0.0, 0.0)}
        others = [v for k, v in positions.items() if k != cube] + [(x, y, 0.0) for x, y in GOALS]
        spot = free_spot(others, here, x_range=DRAG_X, y_range=DRAG_Y)
        if spot is None:
            self.log.append("no free spot to drag to")
            return None
        return {"object_name": cube, "mode": "DRAG", "target": (spot[0], spot[1], TABLE_TOP_Z + 0.0255)}
