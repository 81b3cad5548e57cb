"""Camera model and PyBullet conversions: intrinsics, optical-frame pose, metric depth."""
from __future__ import annotations

import math

import numpy as np
import pybullet as p
import pytest
from perception_scenes import TABLE_TOP, TableScene

from robot_tasks.perception.camera import CameraIntrinsics, back_project, transform_points, validate_pose
from robot_tasks.perception.errors import PerceptionInputError
from robot_tasks.perception.pybullet_camera import (
    depth_from_pybullet_buffer,
    intrinsics_from_pybullet_projection,
    near_far_from_pybullet_projection,
    pose_from_pybullet_view,
    view_from_pose,
)


def test_intrinsics_match_the_field_of_view():
    proj = p.computeProjectionMatrixFOV(60.0, 640 / 480, 0.05, 5.0)
    k = intrinsics_from_pybullet_projection(proj, 640, 480)
    expected_f = 240.0 / math.tan(math.radians(30.0))
    assert k.fx == pytest.approx(expected_f, rel=1e-5)
    assert k.fy == pytest.approx(expected_f, rel=1e-5)
    # TinyRenderer sampling (module docstring): cx = W/2, cy = H/2 - 1.
    assert (k.cx, k.cy) == pytest.approx((320.0, 239.0))
    gl = intrinsics_from_pybullet_projection(proj, 640, 480, tiny_renderer=False)
    assert (gl.cx, gl.cy) == pytest.approx((319.5, 239.5))
    assert near_far_from_pybullet_projection(proj) == pytest.approx((0.05, 5.0), rel=1e-5)


def test_pose_from_view_is_the_optical_frame():
    eye, target = np.array([1.0, 0.2, 1.5]), np.array([0.4, 0.0, 0.6])
    view = p.computeViewMatrix(eye.tolist(), target.tolist(), [0, 0, 1])
    t = validate_pose(pose_from_pybullet_view(view))
    assert t[:3, 3] == pytest.approx(eye, abs=1e-6)
    forward = (target - eye) / np.linalg.norm(target - eye)
    assert t[:3, 2] == pytest.approx(forward, abs=1e-6)      # optical z looks at the target
    assert t[2, 1] < 0                                        # optical y (image down) points down
    assert np.allclose(view_from_pose(t), view, atol=1e-6)


def test_k_matrix_round_trip_and_projection():
    k = CameraIntrinsics(500.0, 510.0, 320.0, 240.0, 640, 480)
    again = CameraIntrinsics.from_k(k.k.reshape(-1).tolist(), 640, 480)
    assert again == k
    depth = np.full((480, 640), 2.0, dtype=np.float32)
    pts = back_project(depth, k)
    uv = k.project(pts[100, 200][None])
    assert uv[0] == pytest.approx([200.0, 100.0])


@pytest.mark.parametrize("bad", [
    dict(fx=0.0, fy=1.0, cx=0.0, cy=0.0, width=10, height=10),
    dict(fx=1.0, fy=1.0, cx=float("nan"), cy=0.0, width=10, height=10),
    dict(fx=1.0, fy=1.0, cx=0.0, cy=0.0, width=0, height=10),
])
def test_bad_intrinsics_are_rejected(bad):
    with pytest.raises(PerceptionInputError, match="intrinsics"):
        CameraIntrinsics(**bad)


def test_non_rigid_pose_is_rejected():
    t = np.eye(4)
    t[0, 0] = 2.0
    with pytest.raises(PerceptionInputError, match="rigid"):
        validate_pose(t)
    with pytest.raises(PerceptionInputError, match="4x4"):
        validate_pose(np.eye(3))


def test_depth_buffer_far_plane_is_no_return():
    d = depth_from_pybullet_buffer(np.array([[0.0, 1.0]]), 0.1, 3.0)
    assert d[0, 0] == pytest.approx(0.1)
    assert np.isinf(d[0, 1])


@pytest.mark.sim
def test_rendered_table_back_projects_to_its_height_and_a_cube_to_its_spot():
    """Back-projected table pixels sit at the table height; a cube's top face lands on it."""
    with TableScene() as scene:
        scene.add_cube("red", (0.55, 0.07), yaw=0.0)
        frame = scene.render(eye=(1.0, 0.1, 1.4), target=(0.5, 0.0, TABLE_TOP), width=320, height=240)
        pts = transform_points(frame.world_T_camera, back_project(frame.depth, frame.intrinsics))
        centre = pts[200, 160]
        assert centre[2] == pytest.approx(0.625, abs=1e-3)          # table top
        top = pts[np.abs(pts[..., 2] - (0.625 + 0.05)) < 1e-3]
        assert top.shape[0] > 30
        # Pixel centres lie inside the true 5 cm face and span nearly all of it.
        assert top[:, 0].min() > 0.525 - 1e-3 and top[:, 0].max() < 0.575 + 1e-3
        assert top[:, 1].min() > 0.045 - 1e-3 and top[:, 1].max() < 0.095 + 1e-3
        assert (top[:, 0].min() + top[:, 0].max()) / 2 == pytest.approx(0.55, abs=2e-3)
        assert (top[:, 1].min() + top[:, 1].max()) / 2 == pytest.approx(0.07, abs=2e-3)


def test_pose_from_position_quaternion_matches_pybullet():
    from robot_tasks.perception import pose_from_position_quaternion
    q = p.getQuaternionFromEuler([2.5, -0.3, 0.8])
    t = pose_from_position_quaternion([0.1, 0.2, 1.3], q)
    assert t[:3, :3] == pytest.approx(np.array(p.getMatrixFromQuaternion(q)).reshape(3, 3), abs=1e-12)
    assert t[:3, 3] == pytest.approx([0.1, 0.2, 1.3])
    with pytest.raises(PerceptionInputError, match="zero length"):
        pose_from_position_quaternion([0, 0, 0], [0, 0, 0, 0])
    with pytest.raises(PerceptionInputError, match="finite"):
        pose_from_position_quaternion([0, 0, float("nan")], [0, 0, 0, 1])


@pytest.mark.sim
def test_sim_camera_optical_pose_agrees_with_the_view_matrix():
    """The sim's published camera pose (position + quaternion) is the optical frame our
    conversion derives from the same PyBullet view matrix."""
    from robot_tasks.perception import pose_from_position_quaternion
    from robot_tasks.sim import World
    with World(scene="franka_stacking", seed=0) as world:
        cam = world.camera("scene")
        position, quat = cam.optical_pose()
        view = p.computeViewMatrix(list(cam.position), list(cam.target), list(cam.up))
    assert pose_from_position_quaternion(position, quat) == pytest.approx(pose_from_pybullet_view(view), abs=1e-6)
