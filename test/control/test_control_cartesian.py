"""Straight-line Cartesian motion by repeated IK: a descent stays on its vertical line."""
import numpy as np
import pinocchio as pin
import pytest

from robot_tasks.control import Pose, cartesian_line, interpolate_path, max_joint_step, vertical_move


@pytest.mark.parametrize("dz", [-0.25, 0.15])
def test_vertical_move_keeps_xy_within_5mm(arm, dz):
    spec, kin = arm
    q0 = np.array(spec.home)
    start = kin.fk(q0)
    result = vertical_move(kin, q0, dz, step=0.005)
    assert result.success, result.reason
    assert len(result.path) >= abs(dz) / 0.005
    for q in result.path:
        pose = kin.fk(q)
        assert np.linalg.norm(pose.position[:2] - start.position[:2]) <= 0.005
        assert abs(abs(float(np.dot(pose.quaternion, start.quaternion))) - 1) < 1e-5
        assert kin.within_limits(q)
    end = kin.fk(result.path[-1])
    assert end.position[2] == pytest.approx(start.position[2] + dz, abs=1e-4)
    assert max_joint_step(result.path) <= 0.1
    # Densified for the controller, the bound of the interpolation still holds.
    assert max_joint_step(interpolate_path(result.path)) <= 0.006


def test_the_tip_stays_on_the_line_between_waypoints(panda):
    """Check the densified joint path, not only the IK waypoints."""
    spec, kin = panda
    q0 = np.array(spec.home)
    start = kin.fk(q0)
    result = vertical_move(kin, q0, -0.3)
    dense = interpolate_path(result.path)
    xy = np.array([kin.fk(q).position[:2] for q in dense])
    assert np.max(np.linalg.norm(xy - start.position[:2], axis=1)) <= 0.005


def test_line_with_orientation_change(panda):
    spec, kin = panda
    q0 = np.array(spec.home)
    start = kin.fk(q0)
    tilted = start.matrix()
    tilted[:3, :3] = tilted[:3, :3] @ pin.rpy.rpyToMatrix(0.4, 0.0, 0.0)  # 0.4 rad about x
    goal_quat = Pose.from_matrix(tilted).quaternion
    goal = start.position + [0.1, 0.05, -0.1]
    result = cartesian_line(kin, q0, goal, goal_quat)
    assert result.success, result.reason
    end = kin.fk(result.path[-1])
    assert np.linalg.norm(end.position - goal) <= 1e-4
    assert abs(abs(float(np.dot(end.quaternion, goal_quat))) - 1) < 1e-6


def test_unreachable_line_fails_with_a_reason(arm):
    spec, kin = arm
    result = cartesian_line(kin, spec.home, [3.0, 0.0, 0.5])
    assert not result.success
    assert result.failed_fraction is not None and 0 < result.failed_fraction < 1
    assert "IK failed" in result.reason or "joint jump" in result.reason
    assert len(result.path) >= 1
