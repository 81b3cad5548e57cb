"""The RGB-D camera: images, metric depth and intrinsics that back-project correctly."""
from __future__ import annotations

import numpy as np
import pytest

from robot_tasks.sim import Camera, World
from robot_tasks.sim.objects import make_box
from robot_tasks.sim.scenes.common import add_plane

pytestmark = pytest.mark.sim


@pytest.fixture
def box_world():
    with World() as world:
        add_plane(world)
        # A 10 cm static box whose top-face centre is the known point (0.3, -0.2, 0.1).
        body = make_box(world.client, (0.05, 0.05, 0.05), (0.3, -0.2, 0.05), mass=0.0, rgba=(1, 0, 0, 1))
        yield world, body


def test_known_point_back_projects_through_the_intrinsics(box_world):
    world, body = box_world
    cam = Camera(world, 320, 240, 55.0, position=(0.9, 0.3, 0.9), target=(0.2, -0.1, 0.0))
    frame = cam.capture(segmentation=True)
    assert frame.rgb.shape == (240, 320, 3) and frame.rgb.dtype == np.uint8
    assert frame.depth.shape == (240, 320) and frame.depth.dtype == np.float32

    point = np.array([0.3, -0.2, 0.1])
    u, v, z = cam.project(point)
    ui, vi = int(round(u)), int(round(v))
    assert 0 <= ui < 320 and 0 <= vi < 240
    assert frame.segmentation[vi, ui] == body
    assert frame.rgb[vi, ui, 0] > 100 and frame.rgb[vi, ui, 1] < 60       # red box there
    # Depth at that pixel is the point's z in the optical frame (the box top is flat).
    assert frame.depth[vi, ui] == pytest.approx(z, abs=0.01)
    back = cam.back_project(ui, vi, float(frame.depth[vi, ui]))
    assert np.linalg.norm(back - point) < 0.01

    # The same through the published numbers only: K and the world-from-optical transform.
    K = cam.intrinsics().matrix
    ray = np.linalg.inv(K) @ np.array([ui, vi, 1.0]) * frame.depth[vi, ui]
    T = cam.world_from_optical()
    assert np.linalg.norm(T[:3, :3] @ ray + T[:3, 3] - point) < 0.01


def test_intrinsics_follow_fov_and_resolution(box_world):
    world, _ = box_world
    cam = Camera(world, 640, 480, 60.0)
    k = cam.intrinsics()
    assert k.fy == pytest.approx(240 / np.tan(np.radians(30)))
    # TinyRenderer's measured pixel centre (see Camera.intrinsics), not the textbook (W-1)/2.
    assert k.fx == k.fy and (k.cx, k.cy) == (320.0, 239.0)
    small = cam.resized(320, 240).intrinsics()
    assert small.fx == pytest.approx(k.fx / 2)


def test_plane_depth_matches_geometry_across_the_image(box_world):
    world, _ = box_world
    cam = Camera(world, 160, 120, 60.0, position=(-1.0, 1.0, 1.5), target=(-1.2, 1.2, 0.0))
    frame = cam.capture()
    # Every pixel sees the ground plane (z=0): back-projected points must have z ~ 0.
    K_inv = np.linalg.inv(cam.intrinsics().matrix)
    T = cam.world_from_optical()
    v, u = np.mgrid[0:120:10, 0:160:10]
    pix = np.stack([u.ravel(), v.ravel(), np.ones(u.size)])
    d = frame.depth[v.ravel(), u.ravel()]
    pts = (T[:3, :3] @ (K_inv @ pix * d)).T + T[:3, 3]
    assert np.abs(pts[:, 2]).max() < 0.01


def test_scene_cameras_see_their_objects():
    with World(scene="franka_stacking", seed=0) as world:
        cam = world.camera("scene")
        frame = cam.capture(segmentation=True)
        seen = set(np.unique(frame.segmentation).tolist())
        assert {o.body_id for o in world.objects.values()} <= seen
        pos, quat = cam.optical_pose()
        assert len(pos) == 3 and np.linalg.norm(quat) == pytest.approx(1.0)
