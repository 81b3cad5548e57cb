"""Torque mode in PyBullet: gravity compensation, joint impedance statics, OSC reaching,
and the switch between the trajectory controller and a compliant one."""
from __future__ import annotations

import numpy as np
import pinocchio as pin
import pytest
from torque_helpers import attach, seconds, torque_panda_world

from robot_tasks.control.compliance import (
    JointImpedanceConfig,
    JointImpedanceController,
    OperationalSpaceConfig,
    OperationalSpaceController,
)
from robot_tasks.sim import CommandRejected, JointTrajectory, SimError, TrajectoryPoint, World
from robot_tasks.sim.compliant import arm_dynamics
from robot_tasks.sim.controller_switch import add_compliant_controller
from robot_tasks.sim.robots import make_panda, make_ur10

pytestmark = pytest.mark.sim


def gravity_only(dynamics):
    """Zero stiffness and damping: τ = g(q) and nothing else."""
    return JointImpedanceController(JointImpedanceConfig(
        gravity_compensation=True, stiffness=0.0, damping_ratio=0.0), dynamics)


def test_gravity_compensation_alone_holds_the_arm_still():
    with torque_panda_world() as (world, arm):
        attach(arm, "gravity", gravity_only)
        assert world.physics_rate >= 500
        start = np.array(arm.ee_pose()[0])
        world.step(seconds(world, 2.0))
        drift = np.linalg.norm(np.array(arm.ee_pose()[0]) - start)
        assert drift < 1e-3, f"tool drifted {drift * 1000:.2f} mm in 2 s"
        effort = arm.joint_states(arm.arm_joint_names).effort
        np.testing.assert_allclose(effort, arm.controllers.current().law.dynamics.terms(
            arm.positions(arm.arm_joint_names), np.zeros(7)).gravity, atol=0.05)


def test_gravity_compensation_holds_the_ur10_too():
    """The same law on the other arm (its robot_description carries the suction tool)."""
    with World(physics_substeps=4) as world:
        arm = make_ur10(world)
        world.step(10)
        attach(arm, "gravity", gravity_only)
        start = np.array(arm.ee_pose()[0])
        world.step(seconds(world, 2.0))
        assert np.linalg.norm(np.array(arm.ee_pose()[0]) - start) < 1e-3


@pytest.mark.parametrize("joint, torque", [(1, 3.0), (3, -2.0), (5, 0.8)])
def test_joint_impedance_statics_external_torque_over_stiffness(joint, torque):
    """kp = 100 N·m/rad, no inertial compensation: Δq_j = τ_ext / kp at rest."""
    kp = 100.0
    with torque_panda_world() as (world, arm):
        law = attach(arm, "impedance", lambda dyn: JointImpedanceController(
            JointImpedanceConfig(gravity_compensation=True, stiffness=kp), dyn))
        start = arm.positions(arm.arm_joint_names)
        law.set_command(start)
        motors = arm.controllers.current().motors
        motors.disturbance[joint] = torque
        world.step(seconds(world, 2.0))
        moved = arm.positions(arm.arm_joint_names) - start
        assert abs(moved[joint] - torque / kp) < 0.1 * abs(torque / kp), \
            f"joint {joint} moved {moved[joint]:.5f} rad, expected {torque / kp:.5f}"
        others = np.delete(moved, joint)
        assert np.max(np.abs(others)) < 0.1 * abs(torque / kp)


def test_joint_impedance_statics_with_inertial_compensation():
    """τ = M (kp e − kd q̇) + g: at rest M kp Δq = τ_ext, so Δq = M⁻¹ τ_ext / kp (all joints)."""
    kp = 100.0
    torque = np.array([0.0, 2.0, 0.0, -1.5, 0.0, 0.0, 0.0])
    with torque_panda_world() as (world, arm):
        law = attach(arm, "impedance", lambda dyn: JointImpedanceController(JointImpedanceConfig(
            inertial_compensation=True, gravity_compensation=True, stiffness=kp), dyn))
        start = arm.positions(arm.arm_joint_names)
        law.set_command(start)
        arm.controllers.current().motors.disturbance[:] = torque
        world.step(seconds(world, 3.0))
        q = arm.positions(arm.arm_joint_names)
        expected = np.linalg.solve(law.dynamics.terms(q, np.zeros(7)).mass_matrix, torque) / kp
        moved = q - start
        assert np.linalg.norm(moved - expected) < 0.1 * np.linalg.norm(expected), \
            f"moved {np.round(moved, 4)}, expected {np.round(expected, 4)}"


def test_osc_reaches_a_pose_10_cm_away_within_2_mm():
    with torque_panda_world() as (world, arm):
        law = attach(arm, "osc", lambda dyn: OperationalSpaceController(OperationalSpaceConfig(
            inertial_dynamics_decoupling=True, gravity_compensation=True,
            nullspace_control="position"), dyn))
        q0 = arm.positions(arm.arm_joint_names)
        law.set_nullspace_target(q0)
        tip = law.dynamics.kinematics.fk(q0)
        goal = tip.position + np.array([0.06, -0.06, -0.05])
        assert abs(np.linalg.norm(goal - tip.position) - 0.1) < 0.005
        law.set_command(np.concatenate([goal, tip.quaternion]))
        world.step(seconds(world, 2.0))
        q = arm.positions(arm.arm_joint_names)
        reached = law.dynamics.kinematics.fk(q)
        error = np.linalg.norm(reached.position - goal)
        assert error < 2e-3, f"tip {error * 1000:.2f} mm from the goal"
        sim_tip = np.array(arm.ee_pose()[0])          # PyBullet's own FK agrees
        assert np.linalg.norm(sim_tip - goal) < 2e-3
        turned = np.linalg.norm(pin.log3(reached.rotation @ tip.rotation.T))
        assert turned < 0.01


def test_switching_controllers():
    with torque_panda_world() as (world, arm):
        attach(arm, "gravity", gravity_only)
        trajectory = JointTrajectory(arm.arm_joint_names,
                                     [TrajectoryPoint(arm.positions(arm.arm_joint_names).tolist(), 1.0)])
        with pytest.raises(CommandRejected, match="inactive"):
            arm.controller.command(trajectory)
        assert arm.controllers.active == "gravity"
        world.step(2)
        report = arm.controllers.current().state()
        assert report.active and report.wrench is None and report.physics_rate == 960
        assert report.torque == arm.joint_states(arm.arm_joint_names).effort
        arm.controllers.switch("joint_trajectory_controller")
        goal = arm.positions(arm.arm_joint_names) + 0.1
        arm.controller.command(JointTrajectory(arm.arm_joint_names,
                                               [TrajectoryPoint(goal.tolist(), 1.0)]))
        world.step(seconds(world, 1.5))
        assert arm.controller.state().goal_reached
        arm.controllers.switch("gravity")          # back to torque: holds where it is
        here = np.array(arm.ee_pose()[0])
        world.step(seconds(world, 0.5))
        assert np.linalg.norm(np.array(arm.ee_pose()[0]) - here) < 1e-3
        with pytest.raises(SimError, match="unknown controller 'osc'"):
            arm.controllers.switch("osc")


def test_torque_loop_refuses_a_slow_physics_rate():
    with World() as world:                          # the default: 240 Hz, no sub-steps
        arm = make_panda(world)
        with pytest.raises(SimError, match=">= 500 Hz"):
            add_compliant_controller(arm, "gravity", gravity_only(arm_dynamics(arm)))


def test_default_world_keeps_one_physics_step_per_world_step():
    import pybullet as p

    with World() as world:
        assert world.physics_substeps == 1 and world.physics_time_step == world.time_step
        params = p.getPhysicsEngineParameters(physicsClientId=world.client)
        assert params["fixedTimeStep"] == pytest.approx(1 / 240)
        world.step(5)
        assert world.physics_step_count == world.step_count == 5
    with World(physics_substeps=4) as world:
        world.step(5)
        assert world.physics_step_count == 20 and world.time == pytest.approx(5 / 240)
    with pytest.raises(SimError, match="physics_substeps"):
        World(physics_substeps=0)
