"""Operational-space law: decoupling, selection, force term, nullspace, bad commands."""
import numpy as np
import pinocchio as pin
import pytest

from robot_tasks.control import InputError, Pose
from robot_tasks.control.compliance import (
    ArmDynamics,
    ArmState,
    OperationalSpaceConfig,
    OperationalSpaceController,
    wall_press_command,
    wall_press_config,
)

TILT = pin.utils.rotate("y", -np.pi / 4) @ pin.utils.rotate("x", np.pi)   # a 45° wall frame


@pytest.fixture(scope="module")
def panda_dynamics(panda):
    return panda[0], ArmDynamics(panda[1])


def _state(spec, seed=0, wrench=None):
    rng = np.random.default_rng(seed)
    return ArmState(np.array(spec.home) + rng.uniform(-0.3, 0.3, 7), rng.uniform(-0.3, 0.3, 7),
                    wrench)


def _pose_command(position, rotation=np.eye(3)):
    return np.concatenate([position, pin.Quaternion(rotation).coeffs()])


def _error(terms, target: Pose):
    return np.concatenate([target.position - terms.tip_position,
                           pin.log3(target.rotation @ terms.tip_rotation.T)])


@pytest.mark.parametrize("decoupling", ["none", "full", "partial"])
def test_pose_law_matches_the_equation(panda_dynamics, decoupling):
    spec, dynamics = panda_dynamics
    kp = np.array([100, 200, 300, 40, 50, 60.0])
    ctrl = OperationalSpaceController(OperationalSpaceConfig(
        inertial_dynamics_decoupling=decoupling != "none",
        partial_inertial_dynamics_decoupling=decoupling == "partial",
        gravity_compensation=True, motion_stiffness_task=kp, motion_damping_ratio_task=0.8),
        dynamics)
    target = Pose([0.45, 0.1, 0.4], pin.Quaternion(pin.utils.rotate("x", 3.0)).coeffs())
    ctrl.set_command(_pose_command(target.position, target.rotation))
    state = _state(spec)
    terms = dynamics.terms(state.q, state.dq)
    accel = kp * _error(terms, target) - 2 * np.sqrt(kp) * 0.8 * terms.tip_twist
    jac, mass = terms.jacobian, terms.mass_matrix
    inv_lambda = jac @ np.linalg.inv(mass) @ jac.T
    if decoupling == "full":
        accel = np.linalg.inv(inv_lambda) @ accel
    elif decoupling == "partial":
        accel = np.concatenate([np.linalg.inv(inv_lambda[:3, :3]) @ accel[:3],
                                np.linalg.inv(inv_lambda[3:, 3:]) @ accel[3:]])
    np.testing.assert_allclose(ctrl.compute(state), jac.T @ accel + terms.gravity, atol=1e-8)


def test_unselected_axis_gets_no_force(panda_dynamics):
    """Motion axes [1,1,0,1,1,1] in a tilted frame: an error along its z makes no torque."""
    spec, dynamics = panda_dynamics
    ctrl = OperationalSpaceController(OperationalSpaceConfig(
        motion_control_axes_task=(1, 1, 0, 1, 1, 1)), dynamics)
    state = ArmState(np.array(spec.home), np.zeros(7))
    tip = dynamics.kinematics.fk(state.q)
    frame = Pose(tip.position, pin.Quaternion(TILT).coeffs())
    ctrl.set_command(_pose_command([0.0, 0.0, 0.05], TILT.T @ tip.rotation), task_frame=frame)
    np.testing.assert_allclose(ctrl.compute(state), 0.0, atol=1e-10)
    ctrl.set_command(_pose_command([0.05, 0.0, 0.0], TILT.T @ tip.rotation), task_frame=frame)
    force = np.linalg.pinv(dynamics.terms(state.q, state.dq).jacobian.T) @ ctrl.compute(state)
    np.testing.assert_allclose(force[:3], 100.0 * 0.05 * TILT[:, 0], atol=1e-8)


def test_wrench_target_and_closed_loop_force_term(panda_dynamics):
    spec, dynamics = panda_dynamics
    cfg = OperationalSpaceConfig(target_types=("wrench_abs",),
                                 contact_wrench_control_axes_task=(0, 0, 1, 0, 0, 0),
                                 contact_wrench_stiffness_task=(0, 0, 0.5, 0, 0, 0))
    ctrl = OperationalSpaceController(cfg, dynamics)
    frame = Pose([0.5, 0, 0.3], pin.Quaternion(TILT).coeffs())
    ctrl.set_command([3.0, 0, 10.0, 0, 0, 1.0], task_frame=frame)   # only z is selected
    measured = np.concatenate([TILT @ [0, 0, 6.0], np.zeros(3)])     # 6 N measured on z
    state = _state(spec, 1, wrench=measured)
    jac = dynamics.terms(state.q, state.dq).jacobian
    expected = jac.T @ np.concatenate([TILT[:, 2] * (10.0 + 0.5 * (10.0 - 6.0)), np.zeros(3)])
    np.testing.assert_allclose(ctrl.compute(state), expected, atol=1e-10)
    with pytest.raises(InputError, match="no measured wrench"):
        ctrl.compute(_state(spec, 1))


def test_nullspace_torque_does_not_move_the_tip(panda_dynamics):
    """J M⁻¹ τ_null = 0: the posture term accelerates no task direction."""
    spec, dynamics = panda_dynamics
    cfg = OperationalSpaceConfig(target_types=("wrench_abs",), nullspace_control="position")
    ctrl = OperationalSpaceController(cfg, dynamics)
    state = _state(spec, 2)
    tau = ctrl.compute(state)
    terms = dynamics.terms(state.q, state.dq)
    assert np.linalg.norm(tau) > 0.1
    np.testing.assert_allclose(terms.jacobian @ np.linalg.solve(terms.mass_matrix, tau), 0.0,
                               atol=1e-9)


def test_relative_pose_target(panda_dynamics):
    spec, dynamics = panda_dynamics
    ctrl = OperationalSpaceController(OperationalSpaceConfig(target_types=("pose_rel",)), dynamics)
    tip = dynamics.kinematics.fk(np.array(spec.home))
    ctrl.set_command([0.0, 0.0, 0.1, 0.0, 0.0, 0.2], current_tip=tip)
    np.testing.assert_allclose(ctrl.pose_target.position, tip.position + [0, 0, 0.1], atol=1e-12)
    np.testing.assert_allclose(ctrl.pose_target.rotation,
                               pin.utils.rotate("z", 0.2) @ tip.rotation, atol=1e-12)
    with pytest.raises(InputError, match="current_tip"):
        ctrl.set_command(np.zeros(6))


def test_wall_press_preset_command_layout(panda_dynamics):
    ctrl = OperationalSpaceController(wall_press_config(), panda_dynamics[1])
    assert ctrl.action_dim == 7 + 6 + 6
    ctrl.set_command(wall_press_command([0.0, 0.05, 0.0], force=10.0))
    np.testing.assert_allclose(ctrl.wrench_target, [0, 0, 10, 0, 0, 0])


@pytest.mark.parametrize("mode, command, message", [
    ("fixed", [0.4, 0, 0.4, 0, 0, 0], "expected 7 values, got 6"),
    ("fixed", [0.4, 0, np.nan, 0, 0, 0, 1], "NaN"),
    ("fixed", [0.4, 0, 0.4, 0, 0, 0, 0], "zero length"),
    ("variable_kp", [0.4, 0, 0.4, 0, 0, 0, 1] + [100.0] * 5 + [1001.0],
     r"motion stiffness\[5\] = 1001 is outside its limits \[0, 1000\]"),
    ("variable", [0.4, 0, 0.4, 0, 0, 0, 1] + [100.0] * 6 + [1.0] * 5 + [-0.1],
     r"motion damping ratio\[5\] = -0.1"),
])
def test_bad_commands_raise_and_keep_the_previous_one(panda_dynamics, mode, command, message):
    spec, dynamics = panda_dynamics
    ctrl = OperationalSpaceController(OperationalSpaceConfig(impedance_mode=mode), dynamics)
    ctrl.set_command([0.5, 0, 0.5, 1, 0, 0, 0] + [200.0] * 6 * (mode != "fixed")
                     + [2.0] * 6 * (mode == "variable"))
    with pytest.raises(InputError, match=message):
        ctrl.set_command(command)
    np.testing.assert_allclose(ctrl.pose_target.position, [0.5, 0, 0.5])


@pytest.mark.parametrize("kwargs, message", [
    ({"target_types": ()}, "empty"),
    ({"target_types": ("pose_abs", "pose_rel")}, "not both"),
    ({"target_types": ("twist_abs",)}, "target type 'twist_abs'"),
    ({"motion_control_axes_task": (1, 1, 0.5, 1, 1, 1)}, "0 or 1"),
    ({"nullspace_control": "velocity"}, "nullspace_control 'velocity'"),
    ({"motion_stiffness_task": 2000.0}, r"outside its limits \[0, 1000\]"),
    ({"contact_wrench_stiffness_task": (0, 0, -1, 0, 0, 0)}, ">= 0"),
])
def test_bad_config_raises(panda_dynamics, kwargs, message):
    with pytest.raises(InputError, match=message):
        OperationalSpaceController(OperationalSpaceConfig(**kwargs), panda_dynamics[1])
