"""Pose validation, robot model lookup, and the layer rule (no ROS, no PyBullet imported)."""
import os
import subprocess
import sys

import numpy as np
import pytest

from robot_tasks.control import InputError, ModelError, Pose, arm_spec
from robot_tasks.control.robot_models import PANDA_ARM_JOINTS, UR10_ARM_JOINTS

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def test_importing_control_pulls_in_no_ros_and_no_pybullet():
    code = ("import sys, robot_tasks.control as c\n"
            "bad = [m for m in sys.modules if m.split('.')[0] in ('rclpy', 'pybullet', 'pybullet_data')]\n"
            "print(','.join(bad))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         env={**os.environ, "PYTHONPATH": REPO}, timeout=60, check=True)
    assert out.stdout.strip() == ""


def test_pose_normalizes_and_round_trips():
    pose = Pose([0.1, 0.2, 0.3], [0.0, 0.0, 2.0, 2.0])
    np.testing.assert_allclose(pose.quaternion, [0, 0, np.sqrt(0.5), np.sqrt(0.5)])
    again = Pose.from_matrix(pose.matrix())
    np.testing.assert_allclose(again.position, pose.position)
    assert abs(abs(float(np.dot(again.quaternion, pose.quaternion))) - 1) < 1e-12
    np.testing.assert_allclose(Pose([0, 0, 0]).quaternion, [0, 0, 0, 1])


@pytest.mark.parametrize("args, message", [
    (([0, 0],), "expected 3"),
    (([0, 0, 0], [0, 0, 0, 0]), "zero length"),
    (([0, 0, float("inf")],), "NaN or infinity"),
    ((["a", 0, 0],), "not a numeric"),
])
def test_pose_rejects_bad_values(args, message):
    with pytest.raises(InputError, match=message):
        Pose(*args)


def test_pose_from_matrix_rejects_non_rotation():
    bad = np.eye(4)
    bad[0, 0] = 2.0
    with pytest.raises(InputError, match="not a rotation"):
        Pose.from_matrix(bad)


def test_arm_specs_point_at_real_files():
    panda, ur10 = arm_spec("panda"), arm_spec("ur10")
    assert os.path.isfile(panda.urdf_path) and os.path.isfile(ur10.urdf_path)
    assert panda.joint_names == PANDA_ARM_JOINTS and ur10.joint_names == UR10_ARM_JOINTS
    assert all(os.path.isdir(d) for d in panda.package_dirs + ur10.package_dirs)
    with pytest.raises(ModelError, match="unknown robot"):
        arm_spec("kuka")


@pytest.mark.parametrize("quaternion, problem", [
    ((0.0, 0.0, 0.0, 1.0), None),
    ((0.7071, 0.0, 0.0, 0.7071), None),           # typed with 4 digits: within tolerance
    ((0.92388, 0.0, 0.382683, 0.0), None),         # trees/franka_press.xml
    ((0.0, 0.0, 0.0, 2.0), "not normalized: length 2"),
    ((0.0, 0.0, 0.0, 0.9), "not normalized: length 0.9"),
    ((0.0, 0.0, 0.0, 0.0), "zero quaternion"),
    ((float("nan"), 0.0, 0.0, 1.0), "not 4 finite numbers"),
    ((0.0, 0.0, 1.0), "not 4 finite numbers"),
])
def test_goal_quaternions_must_be_unit_length(quaternion, problem):
    from robot_tasks.control.pose import unit_quaternion_problem

    found = unit_quaternion_problem(quaternion)
    assert (found is None) if problem is None else (problem in found), found
