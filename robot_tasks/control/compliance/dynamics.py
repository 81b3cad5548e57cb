"""Rigid-body dynamics of one arm chain, from the same Pinocchio model as its kinematics.

A joint-torque controller needs the arm's equation of motion

    M(q) q̈ + C(q, q̇) q̇ + g(q) = τ + J(q)ᵀ w_ext

- M(q): the joint-space mass (inertia) matrix, symmetric positive definite (Pinocchio's CRBA);
- C(q, q̇) q̇: Coriolis and centrifugal torques; g(q): gravity torques;
- J(q): the 6 x n tip Jacobian, rows (linear; angular) in base-frame axes, so the tip twist
  is V = J q̇; and J̇(q, q̇), whose product J̇ q̇ is the tip acceleration the joints cause at
  zero joint acceleration (the bias in  V̇ = J q̈ + J̇ q̇).

`ArmDynamics.terms(q, dq)` evaluates them all in one Pinocchio pass (computeAllTerms plus the
Jacobian time variation) and returns them in the caller's joint order (`ArmKinematics`).
Everything comes from the URDF; nothing is read from the simulator.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pinocchio as pin

from ..kinematics import ArmKinematics

_LWA = pin.ReferenceFrame.LOCAL_WORLD_ALIGNED


@dataclass(frozen=True)
class DynamicsTerms:
    """M, g, C q̇, J, J̇ and the tip pose/twist at one (q, q̇), all in base-frame axes."""

    mass_matrix: np.ndarray        # n x n
    gravity: np.ndarray            # n
    coriolis: np.ndarray           # n: C(q, q̇) q̇
    jacobian: np.ndarray           # 6 x n
    jacobian_dot: np.ndarray       # 6 x n
    tip_position: np.ndarray       # 3
    tip_rotation: np.ndarray       # 3 x 3
    tip_twist: np.ndarray          # 6: (v, ω) = J q̇


class ArmDynamics:
    """Mass matrix, gravity, Coriolis, Jacobian and its derivative of an ArmKinematics chain."""

    def __init__(self, kinematics: ArmKinematics):
        self.kinematics = kinematics
        self.model = kinematics.model
        self.data = self.model.createData()
        self._idx = kinematics.model_indices
        self._tip_id = self.model.getFrameId(kinematics.tip_frame)
        self._base_inv = kinematics.base_placement.inverse()
        self._base_rot_t = self._base_inv.rotation.copy()

    @property
    def dof(self) -> int:
        return self.kinematics.dof

    def _to_base(self, jac: np.ndarray) -> np.ndarray:
        jac = jac[:, self._idx]
        jac[:3] = self._base_rot_t @ jac[:3]
        jac[3:] = self._base_rot_t @ jac[3:]
        return jac

    def terms(self, q, dq) -> DynamicsTerms:
        """All terms at (q, dq); q and dq are trusted (length n, finite)."""
        model, data = self.model, self.data
        qm = self.kinematics.to_model_q(q)
        vm = self.kinematics.to_model_q(dq)
        pin.computeAllTerms(model, data, qm, vm)                 # M (upper), nle, g, J, oMf
        pin.computeJointJacobiansTimeVariation(model, data, qm, vm)
        pin.updateFramePlacements(model, data)
        ix = np.ix_(self._idx, self._idx)
        mass = np.triu(data.M) + np.triu(data.M, 1).T           # CRBA fills the upper triangle
        gravity = data.g[self._idx].copy()
        jac = self._to_base(pin.getFrameJacobian(model, data, self._tip_id, _LWA))
        jdot = self._to_base(pin.getFrameJacobianTimeVariation(model, data, self._tip_id, _LWA))
        tip = self._base_inv * data.oMf[self._tip_id]
        dq = np.asarray(dq, float)
        return DynamicsTerms(mass[ix], gravity, data.nle[self._idx] - gravity, jac, jdot,
                             tip.translation.copy(), tip.rotation.copy(), jac @ dq)
