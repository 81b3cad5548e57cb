"""Which cubes moved that no arm was meant to move, and what the arms were doing then.

A diagnosis for the pyramid demo's report, from the sim's ground truth (it grades and
explains a run, it never steers it). A cube reserved by a robot is that robot's business:
it is lifted, carried and placed, and a drag or drop of it is the disturbance. Every other
cube -- one still on the pyramid, or one already placed on a stack -- should stay where
it rests. When one moves more than `threshold` from its resting place, that is a bump:
one event per push, with the sim time, how far the cube went in the end, and each arm's
running motion leaves at the moment it started (from MotionOverlap), so a bench's
reports tell which phase of which arm knocks the pyramid or a stack. The same context is
kept for every `needs_recovery` a robot raises (a cube that left its gripper while the
other arm passed close by shows here, not as a bump: its robot owned it).

Fed from the demo runner's watcher thread: on_change (node status changes, passed on to
the MotionOverlap), on_log (the tree executor's log lines: "reserve: panda_1 -> red_cube"
and "placed: panda_1 put red_cube at level 0" say who owns which cube), on_poses (the
sim's ground-truth positions). ROS-free.
"""
from __future__ import annotations

import math
import re
from dataclasses import dataclass, field

from robot_tasks.tasks.episode import Follower
from robot_tasks.tasks.pyramid.motion_overlap import MotionOverlap

RESERVED = re.compile(r"reserve: (\w+) -> (\w+)")
PLACED = re.compile(r"placed: (\w+) put (\w+) at level")
GIVEN_BACK = re.compile(r"release: (\w+) gives (\w+) back")
RESTING_STEP = 0.001     # m between two ground-truth samples ...
RESTING_SAMPLES = 5      # ... this many in a row: the cube has come to rest


@dataclass
class BumpWatch(Follower):
    overlap: MotionOverlap = field(default_factory=MotionOverlap)
    flag_names: tuple = ()                            # the tree's Scripts that raise needs_recovery
    threshold: float = 0.01                           # m from its resting place
    owner: dict = field(default_factory=dict)         # cube -> robot that reserved it (until placed)
    rest: dict = field(default_factory=dict)          # cube -> where it rests
    last: dict = field(default_factory=dict)          # cube -> its previous sample
    moving: dict = field(default_factory=dict)        # cube -> the bump in progress
    still: dict = field(default_factory=dict)         # cube -> samples in a row without moving
    bumps: list = field(default_factory=list)
    flags: list = field(default_factory=list)         # each needs_recovery raised, with what the arms did

    def on_change(self, sim_time: float, change) -> None:
        if change.name in self.flag_names and change.status == "SUCCESS":
            self.flags.append({"sim_time": round(sim_time, 3), "robot": self.overlap.robot_of(change.path),
                               "flag": change.name, "doing": self._doing()})
        self.overlap.on_change(sim_time, change)

    def on_log(self, line: str) -> None:
        if match := RESERVED.search(line):
            self.owner[match.group(2)] = match.group(1)
        elif match := PLACED.search(line) or GIVEN_BACK.search(line):
            cube = match.group(2)
            self.owner.pop(cube, None)
            self.rest.pop(cube, None)      # it rests where it was put: the next sample says where

    def on_poses(self, sim_time: float, positions: dict) -> None:
        for cube, position in positions.items():
            if not cube.endswith("_cube"):
                continue
            previous, self.last[cube] = self.last.get(cube), position
            if cube in self.owner:
                self.rest.pop(cube, None)
                continue
            rest = self.rest.setdefault(cube, position)
            bump = self.moving.get(cube)
            if bump is None and math.dist(position, rest) > self.threshold:
                bump = self.moving[cube] = {"sim_time": round(sim_time, 3), "cube": cube,
                                            "from": [round(v, 3) for v in rest], "doing": self._doing()}
                self.bumps.append(bump)
                self.still[cube] = 0
            if bump is not None:
                bump["to"] = [round(v, 3) for v in position]
                bump["moved_m"] = round(math.dist(position, rest), 3)
                still = self.still[cube] = (self.still.get(cube, 0) + 1 if previous is not None
                                            and math.dist(position, previous) < RESTING_STEP else 0)
                if still >= RESTING_SAMPLES:
                    del self.moving[cube]      # at rest again: a later push is a new bump
                    self.rest[cube] = position

    def _doing(self) -> dict:
        return {robot: sorted(path.rsplit("/", 1)[-1] for path in self.overlap.running.get(robot, ()))
                or ["nothing"] for robot in self.overlap.robots}

    def summary(self) -> dict:
        return {**self.overlap.summary(), "bumps": list(self.bumps), "recovery_flags": list(self.flags),
                "cubes_watched": len(self.last)}
