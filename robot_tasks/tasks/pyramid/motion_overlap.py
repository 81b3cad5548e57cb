"""How much the two arms worked at once, and each robot's own result, from tree_status.

Fed every node status change of a FrankaPyramid run (the runner's `follow` hook), it
keeps, per robot, how many of its MoveToPose leaves are RUNNING (a robot's leaves sit
under the SubTree instance named after it: `.../both_robots/panda_1/...`), and adds up
the sim time in which one, or both, robots had a motion running. The SubTree node of
each robot gives that robot's tree result. ROS-free.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from robot_tasks.tasks.episode import Follower


@dataclass
class MotionOverlap(Follower):
    robots: tuple[str, ...] = ("panda_1", "panda_2")
    running: dict = field(default_factory=dict)     # robot -> set of running MoveToPose paths
    results: dict = field(default_factory=dict)     # robot -> last status of its SubTree node
    moving_s: dict = field(default_factory=dict)    # robot -> sim s with a motion running
    both_s: float = 0.0
    start: float | None = None
    last: float | None = None

    def robot_of(self, path: str) -> str | None:
        parts = path.split("/")
        return next((r for r in self.robots if r in parts), None)

    def on_change(self, sim_time: float, change) -> None:
        self._advance(sim_time)
        robot = self.robot_of(change.path)
        if robot is None:
            return
        if change.registration_id == "SubTree" and change.name == robot and change.status in ("SUCCESS", "FAILURE"):
            self.results[robot] = change.status       # (the parent resets it to IDLE afterwards)
        if change.registration_id == "MoveToPose":
            paths = self.running.setdefault(robot, set())
            (paths.add if change.status == "RUNNING" else paths.discard)(change.path)

    def _advance(self, now: float) -> None:
        if self.start is None:
            self.start = self.last = now
            return
        dt = max(0.0, now - self.last)
        moving = [r for r in self.robots if self.running.get(r)]
        for robot in moving:
            self.moving_s[robot] = self.moving_s.get(robot, 0.0) + dt
        if len(moving) == len(self.robots):
            self.both_s += dt
        self.last = now

    def summary(self) -> dict:
        span = (self.last - self.start) if self.start is not None else 0.0
        return {"robot_results": {r: self.results.get(r, "NOT_RUN") for r in self.robots},
                "motion": {"span_s": round(span, 2), "both_moving_s": round(self.both_s, 2),
                           "moving_s": {r: round(self.moving_s.get(r, 0.0), 2) for r in self.robots},
                           "both_moving_fraction": round(self.both_s / span, 3) if span > 0 else 0.0}}
