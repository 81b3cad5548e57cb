"""Joint impedance law: the equation, the three impedance modes, and bad commands."""
import numpy as np
import pytest

from robot_tasks.control import InputError
from robot_tasks.control.compliance import ArmDynamics, ArmState, JointImpedanceConfig, JointImpedanceController


@pytest.fixture(scope="module")
def panda_dynamics(panda):
    return panda[0], ArmDynamics(panda[1])


def _state(spec, seed=0):
    rng = np.random.default_rng(seed)
    return ArmState(np.array(spec.home) + rng.uniform(-0.3, 0.3, 7), rng.uniform(-0.5, 0.5, 7))


@pytest.mark.parametrize("inertial, gravity", [(True, True), (False, True), (True, False),
                                               (False, False)])
def test_law_is_m_times_spring_plus_gravity(panda_dynamics, inertial, gravity):
    spec, dynamics = panda_dynamics
    ctrl = JointImpedanceController(JointImpedanceConfig(
        inertial_compensation=inertial, gravity_compensation=gravity, stiffness=80.0,
        damping_ratio=0.7), dynamics)
    target = np.array(spec.home)
    ctrl.set_command(target)
    state = _state(spec)
    terms = dynamics.terms(state.q, state.dq)
    accel = 80.0 * (target - state.q) - 2.0 * np.sqrt(80.0) * 0.7 * state.dq
    expected = (terms.mass_matrix @ accel if inertial else accel) + (terms.gravity if gravity else 0)
    np.testing.assert_allclose(ctrl.compute(state), expected, atol=1e-10)


def test_variable_modes_carry_gains_in_the_command(panda_dynamics):
    spec, dynamics = panda_dynamics
    state = _state(spec, 1)
    target = np.array(spec.home)
    kp = np.linspace(10, 70, 7)
    ratio = np.linspace(0.2, 2.0, 7)
    variable = JointImpedanceController(JointImpedanceConfig(impedance_mode="variable"), dynamics)
    assert variable.action_dim == 21
    variable.set_command(np.concatenate([target, kp, ratio]))
    expected = kp * (target - state.q) - 2 * np.sqrt(kp) * ratio * state.dq
    np.testing.assert_allclose(variable.compute(state), expected, atol=1e-12)
    variable_kp = JointImpedanceController(JointImpedanceConfig(impedance_mode="variable_kp",
                                                                damping_ratio=0.5), dynamics)
    assert variable_kp.action_dim == 14
    variable_kp.set_command(np.concatenate([target, kp]))
    expected = kp * (target - state.q) - 2 * np.sqrt(kp) * 0.5 * state.dq
    np.testing.assert_allclose(variable_kp.compute(state), expected, atol=1e-12)


def test_relative_targets_and_offsets(panda_dynamics):
    spec, dynamics = panda_dynamics
    state = _state(spec, 2)
    rel = JointImpedanceController(JointImpedanceConfig(command_type="p_rel"), dynamics)
    rel.set_command(np.full(7, 0.1), current_q=state.q)
    np.testing.assert_allclose(rel.q_desired, state.q + 0.1)
    with pytest.raises(InputError, match="p_rel"):
        rel.set_command(np.zeros(7))
    offset = JointImpedanceController(JointImpedanceConfig(dof_pos_offset=[0.2] * 7), dynamics)
    offset.set_command(np.zeros(7))
    np.testing.assert_allclose(offset.q_desired, 0.2)


def test_holds_the_measured_pose_until_commanded(panda_dynamics):
    spec, dynamics = panda_dynamics
    ctrl = JointImpedanceController(JointImpedanceConfig(), dynamics)
    state = ArmState(np.array(spec.home), np.zeros(7))
    np.testing.assert_allclose(ctrl.compute(state), 0.0, atol=1e-12)


@pytest.mark.parametrize("mode, command, message", [
    ("fixed", [0.0] * 6, "expected 7 values, got 6"),
    ("fixed", [0.0] * 6 + [np.nan], "NaN"),
    ("variable_kp", [0.0] * 7 + [50.0] * 6 + [301.0],
     r"stiffness\[6\] = 301 is outside its limits \[0, 300\]"),
    ("variable_kp", [0.0] * 7 + [-1.0] + [50.0] * 6, r"stiffness\[0\] = -1"),
    ("variable", [0.0] * 7 + [50.0] * 7 + [1.0] * 6 + [101.0], r"damping ratio\[6\] = 101"),
    ("variable", [0.0] * 14, "expected 21 values, got 14"),
])
def test_bad_commands_raise_and_keep_the_previous_one(panda_dynamics, mode, command, message):
    spec, dynamics = panda_dynamics
    ctrl = JointImpedanceController(JointImpedanceConfig(impedance_mode=mode), dynamics)
    good = np.concatenate([np.array(spec.home), [50.0] * 7 * (mode != "fixed"),
                           [1.0] * 7 * (mode == "variable")])
    ctrl.set_command(good)
    with pytest.raises(InputError, match=message):
        ctrl.set_command(command)
    np.testing.assert_allclose(ctrl.q_desired, spec.home)
    np.testing.assert_allclose(ctrl.stiffness, 50.0 if mode != "fixed" else 100.0)


@pytest.mark.parametrize("kwargs, message", [
    ({"impedance_mode": "stiff"}, "impedance_mode 'stiff'"),
    ({"command_type": "v_abs"}, "command_type 'v_abs'"),
    ({"stiffness": 500.0}, r"outside its limits \[0, 300\]"),
    ({"stiffness_limits": (10.0, 1.0)}, "0 <= low <= high"),
    ({"dof_pos_offset": [0.0] * 3}, "expected 7 values"),
])
def test_bad_config_raises(panda_dynamics, kwargs, message):
    with pytest.raises(InputError, match=message):
        JointImpedanceController(JointImpedanceConfig(**kwargs), panda_dynamics[1])
