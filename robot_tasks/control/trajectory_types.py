"""TimedTrajectory: the plain-data joint trajectory every timing function returns."""
from __future__ import annotations

from dataclasses import dataclass, field


@dataclass
class TimedTrajectory:
    """What a trajectory_msgs/JointTrajectory needs, as lists of floats.

    The per-point fields decide how the controller interpolates (trajectory_check):
    positions only -> linear, + velocities -> cubic, + accelerations -> quintic."""

    joint_names: list
    positions: list          # one list of dof floats per point
    velocities: list         # same shape as positions, or [] per point (positions only: linear)
    time_from_start: list    # seconds, strictly increasing; first 0.0 (the measured start), or > 0
                             # when the controller starts from its own command (BOUNDED)
    accelerations: list = field(default_factory=list)   # [] = none (cubic or linear)

    @property
    def duration(self) -> float:
        return self.time_from_start[-1] if self.time_from_start else 0.0

    def __len__(self) -> int:
        return len(self.positions)
