"""The Panda's dynamics in PyBullet agree with the Pinocchio model the controllers use.

Both load pybullet_data's panda.urdf; PyBullet keeps the URDF inertias only with
URDF_USE_INERTIA_FROM_FILE (facts doc §8), which is what the torque-mode Panda uses.
The fingers are held where the Pinocchio model locks them, so the arm block of PyBullet's
9x9 mass matrix must equal Pinocchio's 7x7 one.
"""
from __future__ import annotations

import numpy as np
import pinocchio as pin
import pybullet as p
import pytest
from torque_helpers import torque_panda_world

from robot_tasks.sim.compliant import arm_dynamics

pytestmark = pytest.mark.sim


def _configurations(arm, count=6, seed=5):
    rng = np.random.default_rng(seed)
    home = arm.positions(arm.arm_joint_names)
    for _ in range(count):
        yield home + rng.uniform(-0.5, 0.5, 7), rng.uniform(-1, 1, 7), rng.uniform(-2, 2, 7)


def test_pybullet_mass_matrix_and_inverse_dynamics_match_pinocchio():
    with torque_panda_world() as (world, arm):
        dynamics = arm_dynamics(arm)
        model, data = dynamics.model, dynamics.model.createData()
        fingers = arm.positions(["panda_finger_joint1", "panda_finger_joint2"]).tolist()
        for q, dq, ddq in _configurations(arm):
            full_q = q.tolist() + fingers
            mass = np.array(p.calculateMassMatrix(arm.body_id, full_q, physicsClientId=world.client))
            terms = dynamics.terms(q, dq)
            np.testing.assert_allclose(mass[:7, :7], terms.mass_matrix, atol=1e-8)
            tau = p.calculateInverseDynamics(arm.body_id, full_q, dq.tolist() + [0, 0],
                                             ddq.tolist() + [0, 0], physicsClientId=world.client)
            np.testing.assert_allclose(np.array(tau[:7]), pin.rnea(model, data, q, dq, ddq),
                                       atol=1e-8)
            np.testing.assert_allclose(np.array(tau[:7]),
                                       terms.mass_matrix @ ddq + terms.coriolis + terms.gravity,
                                       atol=1e-8)
