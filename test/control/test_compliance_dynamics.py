"""ArmDynamics against Pinocchio's own algorithms (crba, gravity, rnea, frame Jacobian)."""
import numpy as np
import pinocchio as pin
import pytest

from robot_tasks.control.compliance import ArmDynamics

LWA = pin.ReferenceFrame.LOCAL_WORLD_ALIGNED


@pytest.fixture
def dyn(arm):
    spec, kin = arm
    return spec, kin, ArmDynamics(kin)


def _states(spec, kin, count=5, seed=3):
    rng = np.random.default_rng(seed)
    for _ in range(count):
        q = np.clip(np.array(spec.home) + rng.uniform(-0.6, 0.6, kin.dof), kin.lower, kin.upper)
        yield q, rng.uniform(-1.0, 1.0, kin.dof)


def test_mass_gravity_coriolis_match_pinocchio(dyn):
    spec, kin, dynamics = dyn
    model, data = kin.model, kin.model.createData()
    for q, dq in _states(spec, kin):
        terms = dynamics.terms(q, dq)
        mass = pin.crba(model, data, kin.to_model_q(q))
        mass = np.triu(mass) + np.triu(mass, 1).T
        np.testing.assert_allclose(terms.mass_matrix, mass, atol=1e-10)
        np.testing.assert_allclose(terms.mass_matrix, terms.mass_matrix.T, atol=1e-12)
        assert np.all(np.linalg.eigvalsh(terms.mass_matrix) > 0)
        gravity = pin.computeGeneralizedGravity(model, data, kin.to_model_q(q))
        np.testing.assert_allclose(terms.gravity, gravity, atol=1e-10)
        bias = pin.rnea(model, data, kin.to_model_q(q), kin.to_model_q(dq), np.zeros(model.nv))
        np.testing.assert_allclose(terms.coriolis + terms.gravity, bias, atol=1e-10)


def test_jacobian_matches_frame_jacobian_and_kinematics(dyn):
    spec, kin, dynamics = dyn
    model, data = kin.model, kin.model.createData()
    tip = model.getFrameId(kin.tip_frame)
    for q, dq in _states(spec, kin):
        terms = dynamics.terms(q, dq)
        np.testing.assert_allclose(terms.jacobian, kin.jacobian(q), atol=1e-12)
        raw = pin.computeFrameJacobian(model, data, kin.to_model_q(q), tip, LWA)
        rot = kin.base_placement.rotation.T
        np.testing.assert_allclose(terms.jacobian[:3], rot @ raw[:3], atol=1e-12)
        np.testing.assert_allclose(terms.tip_twist, terms.jacobian @ dq, atol=1e-12)
        np.testing.assert_allclose(terms.tip_position, kin.fk(q).position, atol=1e-12)


def test_jacobian_derivative_is_the_time_derivative_of_j(dyn):
    spec, kin, dynamics = dyn
    h = 1e-6
    for q, dq in _states(spec, kin):
        numeric = (kin.jacobian(q + h * dq) - kin.jacobian(q - h * dq)) / (2 * h)
        np.testing.assert_allclose(dynamics.terms(q, dq).jacobian_dot, numeric, atol=1e-6)
