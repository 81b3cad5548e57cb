"""The joint trajectory controller: goals, interpolation, rejection, preemption, stop."""
from __future__ import annotations

import math

import numpy as np
import pytest

from robot_tasks.sim import CommandRejected, JointTrajectory, TrajectoryPoint
from robot_tasks.sim.controller import Outcome, Tolerances
from robot_tasks.sim.trajectory import Interpolator

pytestmark = pytest.mark.sim

GOAL = [0.4, -0.3, 0.2, -2.0, 0.1, 1.9, 0.5]


def _traj(names, *points):
    return JointTrajectory(list(names), [TrajectoryPoint(*pt) for pt in points])


def test_linear_trajectory_reaches_goal_within_tolerance(panda_world):
    arm = panda_world.robot("panda")
    start = arm.positions(arm.arm_joint_names)
    mid = ((np.array(GOAL) + start) / 2).tolist()
    tid = arm.controller.command(_traj(arm.arm_joint_names, (mid, 1.0), (GOAL, 2.0)))
    worst_tracking = 0.0
    for _ in range(int(2.0 / panda_world.time_step)):
        panda_world.step()
        worst_tracking = max(worst_tracking, max(abs(e) for e in arm.controller.state().error))
    panda_world.step_until(lambda: arm.controller.state().goal_reached, timeout=1.0)
    state = arm.controller.state()
    assert state.goal_reached and not state.active and state.error_message == ""
    assert state.trajectory_id == tid
    assert np.max(np.abs(arm.positions(arm.arm_joint_names) - GOAL)) < 0.01
    assert worst_tracking < 0.05, f"tracking error {worst_tracking} rad while moving"


def test_cubic_trajectory_with_velocities_passes_through_points(panda_world):
    arm = panda_world.robot("panda")
    start = arm.positions(arm.arm_joint_names)
    mid = ((np.array(GOAL) + start) / 2)
    vel_mid = ((np.array(GOAL) - start) / 2.0).tolist()
    arm.controller.command(_traj(arm.arm_joint_names, (mid.tolist(), 1.0, vel_mid),
                                 (GOAL, 2.0, [0.0] * 7)))
    panda_world.step(int(1.0 / panda_world.time_step))
    assert np.max(np.abs(arm.positions(arm.arm_joint_names) - mid)) < 0.03
    assert panda_world.step_until(lambda: arm.controller.state().goal_reached, timeout=2.0)


def test_trajectory_in_any_joint_order_is_mapped_by_name(panda_world):
    arm = panda_world.robot("panda")
    names = list(reversed(arm.arm_joint_names))
    arm.controller.command(_traj(names, (list(reversed(GOAL)), 1.5)))
    assert panda_world.step_until(lambda: arm.controller.state().goal_reached, timeout=3.0)
    assert np.max(np.abs(arm.positions(arm.arm_joint_names) - GOAL)) < 0.01


@pytest.mark.parametrize("mutate, reason", [
    (lambda n, p: (n[:-1] + ["elbow"], p), "unknown joint names ['elbow']"),
    (lambda n, p: (n[:-1], [TrajectoryPoint(pt.positions[:-1], pt.time_from_start) for pt in p]),
     "missing joints ['panda_joint7']"),
    (lambda n, p: (n[:-1] + [n[0]], p), "duplicate joint names"),
    (lambda n, p: (n, [TrajectoryPoint([math.nan] + GOAL[1:], 1.0)]), "NaN or inf"),
    (lambda n, p: (n, [TrajectoryPoint([math.inf] + GOAL[1:], 1.0)]), "NaN or inf"),
    (lambda n, p: (n, [TrajectoryPoint(GOAL[:3] + [0.5] + GOAL[4:], 1.0)]), "panda_joint4=0.5000 outside limits"),
    (lambda n, p: (n, [TrajectoryPoint(GOAL, 1.0), TrajectoryPoint(GOAL, 1.0)]), "not after the previous point"),
    (lambda n, p: (n, [TrajectoryPoint(GOAL, 2.0), TrajectoryPoint(GOAL, 1.0)]), "not after the previous point"),
    (lambda n, p: (n, [TrajectoryPoint(GOAL, -1.0)]), "not a finite non-negative"),
    (lambda n, p: (n, [TrajectoryPoint(GOAL[:6], 1.0)]), "6 positions for 7 joints"),
    (lambda n, p: (n, []), "Empty trajectory received"),
    (lambda n, p: (n, [TrajectoryPoint(GOAL, 1.0, [0.0] * 7), TrajectoryPoint(GOAL, 2.0)]),
     "velocities given for some points"),
])
def test_bad_trajectories_are_rejected_with_a_reason_and_change_nothing(panda_world, mutate, reason):
    arm = panda_world.robot("panda")
    arm.controller.command(_traj(arm.arm_joint_names, (GOAL, 2.0)))       # a running trajectory
    panda_world.step(60)
    before = arm.controller.state()
    names, points = mutate(list(arm.arm_joint_names), [TrajectoryPoint(GOAL, 1.0)])
    with pytest.raises(CommandRejected) as err:
        arm.controller.command(JointTrajectory(names, points))
    assert reason in err.value.reason
    after = arm.controller.state()
    assert after.active and after.trajectory_id == before.trajectory_id      # still running the old one
    assert reason in after.error_message
    assert panda_world.step_until(lambda: arm.controller.state().goal_reached, timeout=3.0)


def test_new_trajectory_preempts_smoothly_from_the_current_command(panda_world):
    arm = panda_world.robot("panda")
    home = arm.positions(arm.arm_joint_names)
    arm.controller.command(_traj(arm.arm_joint_names, (GOAL, 2.0)))
    panda_world.step(int(0.8 / panda_world.time_step))
    desired_before = np.array(arm.controller.state().desired)
    other = (home + np.array([-0.3, 0.2, -0.2, 0.3, -0.1, -0.2, 0.0])).tolist()
    tid = arm.controller.command(_traj(arm.arm_joint_names, (other, 1.5)))
    panda_world.step()
    desired_after = np.array(arm.controller.state().desired)
    # One step later the command moved by at most a step's worth of motion: no jump.
    assert np.max(np.abs(desired_after - desired_before)) < 0.02
    assert panda_world.step_until(lambda: arm.controller.state().goal_reached, timeout=3.0)
    assert arm.controller.state().trajectory_id == tid == 2
    assert np.max(np.abs(arm.positions(arm.arm_joint_names) - other)) < 0.01


def test_stop_holds_the_current_position(panda_world):
    arm = panda_world.robot("panda")
    arm.controller.command(_traj(arm.arm_joint_names, (GOAL, 2.0)))
    panda_world.step(int(0.7 / panda_world.time_step))
    arm.controller.stop()
    held = arm.positions(arm.arm_joint_names)
    panda_world.step(240)
    assert not arm.controller.state().active
    assert np.max(np.abs(arm.positions(arm.arm_joint_names) - held)) < 0.02
    assert np.max(np.abs(held - GOAL)) > 0.1          # it really stopped short of the goal


def test_hold_after_the_last_point(panda_world):
    arm = panda_world.robot("panda")
    arm.controller.command(_traj(arm.arm_joint_names, (GOAL, 1.0)))
    panda_world.step(int(3.0 / panda_world.time_step))
    assert np.max(np.abs(arm.positions(arm.arm_joint_names) - GOAL)) < 0.01


def test_unreachable_timing_ends_with_a_goal_tolerance_error(panda_world):
    arm = panda_world.robot("panda")
    far = [-2.5, 1.5, 2.5, -0.3, 2.5, 3.5, 2.5]
    arm.controller.command(_traj(arm.arm_joint_names, (far, 0.02)),
                           tolerances=Tolerances.uniform(7, goal=0.01, goal_time=0.05))
    panda_world.step(60)
    state = arm.controller.state()
    assert not state.active and not state.goal_reached
    assert state.outcome is Outcome.GOAL_TOLERANCE_VIOLATED
    assert "goal tolerance" in state.error_message
    desired, velocity = arm.controller.desired_state()   # JTC holds where the arm was, not the goal
    assert np.max(np.abs(desired - far)) > 0.5 and not velocity.any()


def test_a_path_tolerance_violation_aborts_and_holds(panda_world):
    """A trajectory too fast to follow drifts from its desired path: JTC aborts it
    (PATH_TOLERANCE_VIOLATED) and holds the measured position instead of chasing the goal."""
    arm = panda_world.robot("panda")
    far = [-2.5, 1.5, 2.5, -0.3, 2.5, 3.5, 2.5]
    arm.controller.command(_traj(arm.arm_joint_names, (far, 0.5)),
                           tolerances=Tolerances.uniform(7, path=0.05))
    panda_world.step(int(0.5 / panda_world.time_step))
    state = arm.controller.state()
    assert state.outcome is Outcome.PATH_TOLERANCE_VIOLATED and not state.active
    assert "path tolerance" in state.error_message
    assert np.max(np.abs(np.array(state.actual) - far)) > 0.5      # stopped far short


def test_without_tolerances_the_same_trajectory_runs_on(panda_world):
    arm = panda_world.robot("panda")
    far = [-2.5, 1.5, 2.5, -0.3, 2.5, 3.5, 2.5]
    arm.controller.command(_traj(arm.arm_joint_names, (far, 0.5)))
    panda_world.step(int(0.4 / panda_world.time_step))
    assert arm.controller.state().outcome is Outcome.EXECUTING


def test_speed_scaling_stretches_the_trajectory_in_time(panda_world):
    """JTC's scaling factor (the UR's speed slider): at 0.5 a 1 s trajectory takes 2 s."""
    arm = panda_world.robot("panda")
    arm.controller.speed_scaling = 0.5
    arm.controller.command(_traj(arm.arm_joint_names, (GOAL, 1.0)))
    panda_world.step(int(1.2 / panda_world.time_step))
    state = arm.controller.state()
    assert state.active and state.time_remaining == pytest.approx(0.4, abs=0.02)
    assert np.max(np.abs(arm.positions(arm.arm_joint_names) - GOAL)) > 0.05
    assert panda_world.step_until(lambda: arm.controller.state().goal_reached, timeout=1.5)


def test_stop_ends_the_trajectory_as_stopped(panda_world):
    arm = panda_world.robot("panda")
    arm.controller.command(_traj(arm.arm_joint_names, (GOAL, 2.0)))
    panda_world.step(30)
    arm.controller.stop()
    assert arm.controller.state().outcome is Outcome.STOPPED


def test_interpolator_modes_hit_their_knots():
    times, pos = [0.0, 1.0, 3.0], [[0.0], [1.0], [0.0]]
    lin = Interpolator(times, pos)
    assert lin.mode == "linear" and lin.sample(0.5)[0][0] == pytest.approx(0.5)
    assert lin.sample(2.0)[1][0] == pytest.approx(-0.5)
    cubic = Interpolator(times, pos, [[0.0], [0.0], [0.0]])
    assert cubic.sample(1.0)[0][0] == pytest.approx(1.0) and cubic.sample(1.0)[1][0] == pytest.approx(0.0)
    assert 0.0 < cubic.sample(0.5)[0][0] < 1.0
    quintic = Interpolator(times, pos, [[0.0], [0.0], [0.0]], [[0.0], [0.0], [0.0]])
    assert quintic.mode == "quintic" and quintic.sample(0.5)[0][0] == pytest.approx(0.5)
    assert quintic.sample(10.0)[0][0] == 0.0 and quintic.sample(10.0)[1][0] == 0.0


def test_step_record_is_the_steps_command_and_the_measurement_just_before_it(panda_world):
    arm = panda_world.robot("panda")
    arm.controller.record_steps = True
    arm.controller.command(_traj(arm.arm_joint_names, (GOAL, 2.0)))
    previous_command = None
    for _ in range(120):
        measured_before = arm.positions(arm.arm_joint_names)
        panda_world.step()
        reference, feedback = arm.controller.step_record()
        assert feedback == pytest.approx(list(measured_before), abs=1e-12)   # read before the command
        assert reference == arm.controller.state().desired                    # the command of this step
        if previous_command is not None:
            assert np.max(np.abs(np.subtract(reference, previous_command))) > 0    # it moves on each step
        previous_command = reference
