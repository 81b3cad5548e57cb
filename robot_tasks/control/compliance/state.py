"""What a compliant controller reads each control period: the arm's measured state.

A torque controller on a real arm sees exactly two things: the joint encoders (position and
velocity of every controlled joint) and, when the arm carries one, a force/torque sensor.
`ArmState` holds both, in the controller's joint order and the arm's base frame, and nothing
else — no ground truth, no object poses.

Wrench convention (used by every controller here): `wrench` is the force and moment the
*tool exerts on the environment*, (fx, fy, fz, mx, my, mz) in base-frame axes, moments about
the tip point. Pushing on a wall with 10 N along the wall's inward normal reads +10 N along
that normal. A sensor driver converts its raw reading to this convention.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..pose import as_vector


@dataclass(frozen=True)
class ArmState:
    """Measured joint positions `q`, velocities `dq` (length n) and an optional tip wrench."""

    q: np.ndarray
    dq: np.ndarray
    wrench: np.ndarray | None = None

    @classmethod
    def checked(cls, q, dq, dof: int, wrench=None) -> "ArmState":
        """Build a state after checking lengths and finiteness (raises InputError)."""
        return cls(as_vector(q, dof, "joint positions"), as_vector(dq, dof, "joint velocities"),
                   None if wrench is None else as_vector(wrench, 6, "measured wrench"))
