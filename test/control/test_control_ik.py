"""Differential IK: every method converges on reachable targets for both arms, fails clearly
on unreachable ones, and never leaves the joint limits."""
import numpy as np
import pytest

from robot_tasks.control import IK_METHODS, IkConfig, IkSolver, InputError, Pose
from robot_tasks.control.jacobian_inverse import (
    adaptive_damping,
    ik_params_for,
    step_dls,
    step_pinv,
    step_svd,
    step_transpose,
)


@pytest.mark.parametrize("method", IK_METHODS)
def test_each_method_reaches_several_targets(arm, method, near_home_targets):
    spec, kin = arm
    solver = IkSolver(kin, IkConfig(method=method, restarts=0))
    home = np.array(spec.home)
    for target in near_home_targets(spec, kin, 6):
        result = solver.solve(target, home)
        assert result.success, result.reason
        assert result.reason == "converged"
        reached = kin.fk(result.q)
        assert np.linalg.norm(reached.position - target.position) <= 1e-4
        assert abs(abs(float(np.dot(reached.quaternion, target.quaternion))) - 1) < 1e-6
        assert result.position_error <= 1e-4 and result.orientation_error <= 1e-3
        assert kin.within_limits(result.q)


@pytest.mark.parametrize("method", IK_METHODS)
def test_each_method_reports_unreachable_targets(arm, method):
    spec, kin = arm
    solver = IkSolver(kin, IkConfig(method=method, restarts=1))
    result = solver.solve(Pose([3.0, 0.0, 0.5]), np.array(spec.home))
    assert not result.success
    assert result.position_error > 1.0
    assert "unreachable" in result.reason or "no convergence" in result.reason
    assert result.attempts == 2
    assert kin.within_limits(result.q)


@pytest.mark.parametrize("method", IK_METHODS)
def test_position_only_ignores_orientation(panda, method):
    spec, kin = panda
    home = np.array(spec.home)
    goal = kin.fk(home).position + [0.05, 0.1, -0.1]
    # An orientation the arm could never combine with that position is ignored.
    result = IkSolver(kin, IkConfig(method=method, restarts=0)).solve(
        Pose(goal, [0, 0, 0, 1]), home, position_only=True)
    assert result.success, result.reason
    assert np.linalg.norm(kin.fk(result.q).position - goal) <= 1e-4
    assert result.orientation_error == 0.0


def test_limits_are_honored_when_the_target_pulls_outside(panda):
    """Panda joint 4 lives in [-3.07, -0.07]; aim where the straight Newton step would cross
    its upper limit and check every result stays inside while still converging."""
    spec, kin = panda
    q_target = np.array(spec.home)
    q_target[3] = kin.upper[3] - 0.02          # nearly stretched elbow
    target = kin.fk(q_target)
    seed = np.array(spec.home)
    for method in IK_METHODS:
        result = IkSolver(kin, IkConfig(method=method, restarts=3)).solve(target, seed)
        assert kin.within_limits(result.q), method
        assert result.success, (method, result.reason)


def test_seed_outside_limits_is_clamped(panda, near_home_targets):
    spec, kin = panda
    seed = np.array(spec.home)
    seed[0] = 3.5  # beyond the 2.9671 limit
    target = near_home_targets(spec, kin, 1)[0]
    result = IkSolver(kin, IkConfig(method="dls")).solve(target, seed)
    assert result.success and kin.within_limits(result.q)


def test_bad_inputs_raise(panda):
    spec, kin = panda
    with pytest.raises(InputError, match="unknown IK method"):
        IkConfig(method="newton")
    with pytest.raises(InputError, match="no parameter"):
        IkConfig(method="dls", ik_params={"k_val": 2.0})
    with pytest.raises(InputError, match="positive"):
        IkConfig(position_tolerance=0.0)
    with pytest.raises(InputError, match="NaN"):
        Pose([0.3, float("nan"), 0.4])
    with pytest.raises(InputError, match="must be a Pose"):
        IkSolver(kin).solve([0.3, 0.0, 0.4], spec.home)
    with pytest.raises(InputError, match="IK seed"):
        IkSolver(kin).solve(Pose([0.3, 0, 0.4]), [0.0] * 3)


# ---------------------------------------------------------------- the step formulas
def test_step_formulas_on_a_known_matrix():
    rng = np.random.default_rng(5)
    jac = rng.normal(size=(6, 7))
    err = rng.normal(size=6)
    np.testing.assert_allclose(step_pinv(jac, err), np.linalg.lstsq(jac, err, rcond=None)[0],
                               atol=1e-10)
    np.testing.assert_allclose(step_svd(jac, err), step_pinv(jac, err), atol=1e-10)
    lam = 0.1
    expected = jac.T @ np.linalg.solve(jac @ jac.T + lam ** 2 * np.eye(6), err)
    np.testing.assert_allclose(step_dls(jac, err, lambda_val=lam), expected, atol=1e-12)
    # Transpose: moves along J^T e, and the optimal length never increases the error.
    step = step_transpose(jac, err)
    direction = jac.T @ err
    assert abs(np.dot(step, direction) - np.linalg.norm(step) * np.linalg.norm(direction)) < 1e-9
    assert np.linalg.norm(err - jac @ step) < np.linalg.norm(err)


def test_svd_drops_small_singular_directions():
    jac = np.diag([1.0, 1e-7, 0.5])
    step = step_svd(jac, np.array([1.0, 1.0, 1.0]), min_singular_value=1e-5)
    np.testing.assert_allclose(step, [1.0, 0.0, 2.0])
    assert abs(step_pinv(jac, np.array([0.0, 1.0, 0.0]))[1]) > 1e6  # plain pinv explodes


def test_adaptive_damping_ramps_between_bounds():
    defaults = ik_params_for("adaptive_dls")
    assert defaults == {"lambda_min": 0.05, "lambda_max": 0.2, "sigma_thresh": 0.02}
    assert adaptive_damping(1.0) == 0.05
    assert adaptive_damping(0.02) == 0.05
    assert adaptive_damping(0.0) == pytest.approx(0.2)
    assert adaptive_damping(0.01) == pytest.approx(0.05 + 0.15 * 0.75)


def test_same_call_gives_same_answer(ur10):
    spec, kin = ur10
    solver = IkSolver(kin, IkConfig(method="dls", restarts=4))
    far = Pose([0.2, -0.9, 0.4], [1, 0, 0, 0])
    first = solver.solve(far, spec.home)
    second = solver.solve(far, spec.home)
    assert first.success == second.success and first.attempts == second.attempts
    np.testing.assert_array_equal(first.q, second.q)
