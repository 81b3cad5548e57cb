"""What a controller switch does to a simulated arm, and a compliant controller commanded with
targets (robot_tasks.sim.controller_switch / compliant): no ROS, real physics at 960 Hz."""
from __future__ import annotations

import numpy as np
import pytest
from torque_helpers import seconds, torque_panda_world

from robot_tasks.control.compliance import OperationalSpaceConfig, OperationalSpaceController
from robot_tasks.control.pose import Pose
from robot_tasks.sim import CommandRejected, JointTrajectory, TrajectoryPoint, World
from robot_tasks.sim.compliant import COMPLIANCE_TYPE, arm_dynamics
from robot_tasks.sim.controller_switch import TRAJECTORY, add_compliant_controller

pytestmark = pytest.mark.sim


def osc(dynamics):
    return OperationalSpaceController(OperationalSpaceConfig(
        inertial_dynamics_decoupling=True, gravity_compensation=True, nullspace_control="position"), dynamics)


def hold_trajectory(arm):
    return JointTrajectory(arm.arm_joint_names, [TrajectoryPoint(arm.positions(arm.arm_joint_names).tolist(), 1.0)])


def test_every_arm_starts_under_its_trajectory_controller_claiming_its_bringups_interface():
    with World(scene="ur10_palletizing") as world:
        ur10 = world.robot("ur10").controllers.entries()
        assert [(e.name, e.active) for e in ur10] == [(TRAJECTORY, True)]
        assert ur10[0].command_interfaces[0] == "shoulder_pan_joint/position"
    with torque_panda_world() as (_world, arm):
        entry = arm.controllers.entries()[0]
        assert entry.type == "joint_trajectory_controller/JointTrajectoryController"
        assert entry.command_interfaces[0] == "panda_joint1/effort"


def test_no_controller_active_the_drives_hold_and_trajectories_are_refused():
    with torque_panda_world() as (world, arm):
        here = arm.positions(arm.arm_joint_names)
        arm.controllers.apply([TRAJECTORY], [])
        assert arm.controllers.active == "" and not arm.controller.enabled
        with pytest.raises(CommandRejected, match="inactive"):
            arm.controller.command(hold_trajectory(arm))
        world.step(seconds(world, 1.0))
        assert np.abs(arm.positions(arm.arm_joint_names) - here).max() < 2e-3
        arm.controllers.apply([], [TRAJECTORY])
        assert arm.controller.enabled and arm.controller.command(hold_trajectory(arm)) > 0


def test_a_compliant_controller_takes_pose_wrench_and_stiffness_targets():
    with torque_panda_world() as (world, arm):
        shell = add_compliant_controller(arm, "osc", osc(arm_dynamics(arm)))
        assert arm.controllers.entries()[1].type == COMPLIANCE_TYPE
        arm.controllers.apply([TRAJECTORY], ["osc"])
        world.step(2)
        start = shell.tip_pose()
        goal = Pose(start.position + np.array([0.03, 0.0, 0.02]), start.quaternion)
        shell.set_pose_target(goal)
        world.step(seconds(world, 2.0))
        assert np.linalg.norm(shell.tip_pose().position - goal.position) < 2e-3
        assert np.abs(shell.tip_twist()).max() < 0.01
        # a wrench the pose-only law does not render is added as Jᵀ w: the free tool yields to it
        shell.set_wrench_target([0.0, 0.0, 10.0, 0.0, 0.0, 0.0])
        world.step(seconds(world, 1.5))
        lifted = shell.tip_pose().position[2] - goal.position[2]
        assert lifted > 5e-3, f"10 N up moved the tool {lifted * 1000:.1f} mm"
        shell.set_stiffness([1000.0] * 3 + [100.0] * 3)     # stiffer: it yields less
        world.step(seconds(world, 1.5))
        assert 0 < shell.tip_pose().position[2] - goal.position[2] < lifted / 3
        with pytest.raises(CommandRejected, match=r"stiffness\[0\] = 5000 is outside its limits"):
            shell.set_stiffness([5000.0] * 6)
        with pytest.raises(CommandRejected, match="joint positions"):
            shell.set_joint_target(arm.positions(arm.arm_joint_names))


def test_activation_forgets_the_targets_of_an_earlier_activation():
    with torque_panda_world() as (world, arm):
        shell = add_compliant_controller(arm, "osc", osc(arm_dynamics(arm)))
        arm.controllers.switch("osc")
        world.step(2)
        shell.set_wrench_target([0.0, 0.0, 10.0, 0.0, 0.0, 0.0])
        arm.controllers.switch(TRAJECTORY)
        world.step(seconds(world, 0.5))
        arm.controllers.switch("osc")
        here = shell.tip_pose().position
        world.step(seconds(world, 1.0))
        assert np.linalg.norm(shell.tip_pose().position - here) < 2e-3, "no old wrench pushes"
