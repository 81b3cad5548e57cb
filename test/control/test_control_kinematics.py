"""ArmKinematics: construction, errors, Jacobian consistency, and agreement with PyBullet."""
import numpy as np
import pinocchio as pin
import pybullet as p
import pytest

from robot_tasks.control import ArmKinematics, InputError, ModelError, Pose
from robot_tasks.control.robot_models import PANDA_ARM_JOINTS


def test_panda_chain_excludes_fingers(panda):
    spec, kin = panda
    assert kin.joint_names == PANDA_ARM_JOINTS
    assert kin.dof == 7 and kin.model.nq == 7
    assert kin.tip_frame == "panda_grasptarget"
    np.testing.assert_allclose(kin.lower[3], -3.1416)
    np.testing.assert_allclose(kin.upper[3], 0.0)


def test_ur10_chain(ur10):
    spec, kin = ur10
    assert kin.dof == 6 and kin.tip_frame == "tool0"
    np.testing.assert_allclose(kin.velocity_limits, [2.16, 2.16, 3.15, 3.2, 3.2, 3.2])


def test_from_urdf_string_matches_file(panda):
    spec, kin = panda
    with open(spec.urdf_path) as handle:
        text = handle.read()
    other = ArmKinematics.from_urdf_string(text, spec.tip_frame, spec.joint_names,
                                           spec.base_frame, spec.locked_joints)
    q = np.array(spec.home)
    np.testing.assert_allclose(other.fk_matrix(q), kin.fk_matrix(q), atol=1e-12)


def test_joint_order_is_the_callers(ur10):
    spec, kin = ur10
    reordered = ArmKinematics.from_urdf_file(spec.urdf_path, "tool0",
                                             list(reversed(spec.joint_names)))
    q = np.array(spec.home) + 0.1
    np.testing.assert_allclose(reordered.fk_matrix(q[::-1]), kin.fk_matrix(q), atol=1e-12)
    np.testing.assert_allclose(reordered.jacobian(q[::-1]), kin.jacobian(q)[:, ::-1], atol=1e-12)


@pytest.mark.parametrize("kwargs, message", [
    ({"tip_frame": "no_such_frame"}, "unknown tip frame"),
    ({"tip_frame": "tool0", "joint_names": ["elbow_joint", "bogus"]}, "unknown joint 'bogus'"),
    ({"tip_frame": "tool0", "base_frame": "forearm_link"}, "moved by a controlled joint"),
    ({"tip_frame": "tool0", "joint_names": ["elbow_joint", "elbow_joint"]}, "repeat"),
])
def test_bad_chain_definitions_raise_clear_errors(ur10, kwargs, message):
    spec, _ = ur10
    with pytest.raises(ModelError, match=message):
        ArmKinematics.from_urdf_file(spec.urdf_path, **kwargs)


def test_bad_urdf_inputs():
    with pytest.raises(ModelError, match="not URDF"):
        ArmKinematics.from_urdf_string("hello", "tool0")
    with pytest.raises(ModelError, match="could not parse"):
        ArmKinematics.from_urdf_string("<robot name='x'><link name='a'>", "a")
    with pytest.raises(ModelError, match="not found"):
        ArmKinematics.from_urdf_file("/nonexistent/robot.urdf", "tool0")


def test_bad_joint_vectors_raise(panda):
    _, kin = panda
    with pytest.raises(InputError, match="expected 7"):
        kin.fk([0.0] * 6)
    with pytest.raises(InputError, match="NaN"):
        kin.fk([0.0] * 6 + [float("nan")])


def test_jacobian_matches_finite_differences(arm):
    spec, kin = arm
    rng = np.random.default_rng(3)
    for _ in range(5):
        q = kin.random_configuration(rng, margin=0.1)
        jac = kin.jacobian(q)
        base = kin.fk_se3(q)
        for j in range(kin.dof):
            dq = np.zeros(kin.dof)
            dq[j] = 1e-7
            moved = kin.fk_se3(q + dq)
            np.testing.assert_allclose((moved.translation - base.translation) / 1e-7,
                                       jac[:3, j], atol=1e-5)
            np.testing.assert_allclose(pin.log3(moved.rotation @ base.rotation.T) / 1e-7,
                                       jac[3:, j], atol=1e-5)


def test_pose_error_is_zero_at_target_and_matches_offset(panda):
    spec, kin = panda
    q = np.array(spec.home)
    pose = kin.fk(q)
    np.testing.assert_allclose(kin.pose_error(q, pose), np.zeros(6), atol=1e-12)
    shifted = Pose(pose.position + [0.01, -0.02, 0.03], pose.quaternion)
    np.testing.assert_allclose(kin.pose_error(q, shifted)[:3], [0.01, -0.02, 0.03], atol=1e-12)


def test_fk_agrees_with_pybullet(arm):
    """Pinocchio's FK of the tip equals PyBullet's getLinkState within 1 mm / 1 mrad."""
    spec, kin = arm
    client = p.connect(p.DIRECT)
    try:
        body = p.loadURDF(spec.urdf_path, [0, 0, 0], useFixedBase=True, physicsClientId=client)
        by_name = {p.getJointInfo(body, j, physicsClientId=client)[1].decode(): j
                   for j in range(p.getNumJoints(body, physicsClientId=client))}
        for name, value in spec.locked_joints.items():
            p.resetJointState(body, by_name[name], value, physicsClientId=client)
        tip = None
        for j in range(p.getNumJoints(body, physicsClientId=client)):
            if p.getJointInfo(body, j, physicsClientId=client)[12].decode() == spec.tip_frame:
                tip = j
        assert tip is not None
        rng = np.random.default_rng(11)
        for _ in range(10):
            q = kin.random_configuration(rng)
            for name, value in zip(kin.joint_names, q):
                p.resetJointState(body, by_name[name], value, physicsClientId=client)
            state = p.getLinkState(body, tip, computeForwardKinematics=True,
                                   physicsClientId=client)
            pose = kin.fk(q)
            assert np.linalg.norm(np.array(state[4]) - pose.position) < 1e-3
            # Same rotation up to quaternion sign.
            assert abs(abs(float(np.dot(state[5], pose.quaternion))) - 1.0) < 1e-6
    finally:
        p.disconnect(client)


def test_one_pass_pose_and_jacobian_match_the_separate_calls(arm):
    spec, kin = arm
    q = np.array(spec.home) + 0.05
    placement, jac = kin.pose_and_jacobian(q)
    np.testing.assert_allclose(placement.homogeneous, kin.fk_matrix(q), atol=1e-12)
    np.testing.assert_allclose(jac, kin.jacobian(q), atol=1e-12)
