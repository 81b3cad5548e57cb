"""The sim draws the Panda with light visual meshes (robot_tasks/sim/light_meshes.py).

What must hold: far fewer triangles; texture coordinates only from the source mesh (so
no colour is invented); the camera sees the same arm, silhouette and colours, at
random joint positions; collision geometry and robot_description untouched; the cache
reused, not rebuilt.
"""
from __future__ import annotations

import re

import numpy as np
import pybullet as p
import pytest
import trimesh

from robot_tasks.sim import World, assets, robots
from robot_tasks.sim.light_meshes import MIN_TRIANGLES, light_mesh, light_visual_urdf
from robot_tasks.sim.urdf_text import absolutize_mesh_paths

pytestmark = pytest.mark.sim

LINK1 = assets.pybullet_data_path("franka_panda", "meshes", "visual", "link1.obj")


@pytest.fixture
def own_cache(tmp_path, monkeypatch):
    monkeypatch.setenv("ROBOT_TASKS_CACHE", str(tmp_path / "cache"))
    return tmp_path / "cache"


def test_a_light_mesh_keeps_about_the_fraction_asked_and_only_source_texture_coordinates(own_cache):
    full = trimesh.load(LINK1, force="mesh", process=False)
    path = light_mesh(LINK1, 0.25)
    light = trimesh.load(path, force="mesh", process=False)
    assert path != LINK1 and own_cache in path.parents
    assert 0.15 * len(full.faces) < len(light.faces) <= 0.3 * len(full.faces)
    source_uv = {tuple(row) for row in np.round(full.visual.uv, 5)}
    light_uv = {tuple(row) for row in np.round(light.visual.uv, 5)}
    assert light_uv <= source_uv
    # the shape stays where it was: the same bounds within 1 mm, and each light vertex near a source one
    assert np.abs(light.bounds - full.bounds).max() < 0.001
    nearest = np.linalg.norm(light.vertices[::5, None, :] - full.vertices[None, :, :], axis=2).min(axis=1)
    assert nearest.max() < 0.005


def test_the_cache_is_reused_and_keyed_by_the_fraction(own_cache):
    first = light_mesh(LINK1, 0.25)
    stamp = first.stat().st_mtime_ns
    assert light_mesh(LINK1, 0.25) == first and first.stat().st_mtime_ns == stamp
    assert light_mesh(LINK1, 0.5).parent != first.parent


def test_small_meshes_and_keep_one_are_used_as_they_are(own_cache):
    small = assets.pybullet_data_path("franka_panda", "meshes", "visual", "finger.obj")
    assert len(trimesh.load(small, force="mesh").faces) < MIN_TRIANGLES
    assert light_mesh(small, 0.25) == small
    assert light_mesh(small, 0.25) == small            # the second time from the cache's marker
    assert light_mesh(LINK1, 1.0) == LINK1
    with pytest.raises(ValueError, match="keep"):
        light_mesh(LINK1, 0.0)


def mesh_paths(urdf_text: str, kind: str) -> list[str]:
    blocks = re.findall(rf"<{kind}>.*?</{kind}>", urdf_text, flags=re.S)
    return [path for block in blocks for path in re.findall(r'filename="([^"]+)"', block)]


def test_only_the_sims_visual_meshes_change():
    urdf_path, description = robots.panda_description()
    source = assets.panda_urdf()
    assert description == absolutize_mesh_paths(source.read_text(), source.parent)
    loaded = open(urdf_path).read()
    assert mesh_paths(loaded, "collision") == mesh_paths(description, "collision")
    changed = [a != b for a, b in zip(mesh_paths(loaded, "visual"), mesh_paths(description, "visual"))]
    assert sum(changed) >= 7          # link1-6 and the hand; small meshes stay
    assert light_visual_urdf(description, 1.0).count("<visual>") == description.count("<visual>")


def render_panda_scene(keep: float, poses: list[dict], monkeypatch) -> list[tuple[np.ndarray, np.ndarray]]:
    """(rgb, segmentation) of franka_stacking's scene camera at each joint pose."""
    monkeypatch.setattr(robots, "PANDA_VISUAL_KEEP", keep)
    frames = []
    with World(scene="franka_stacking", seed=0) as world:
        cam = world.camera("scene").resized(320, 240)
        robot = world.robots["panda"]
        for pose in poses:
            robot.reset_joints(pose)
            frame = cam.capture(segmentation=True)
            frames.append((frame.rgb.astype(int), frame.segmentation, robot.body_id))
        shapes = [p.getCollisionShapeData(robot.body_id, j, physicsClientId=world.client)
                  for j in range(-1, p.getNumJoints(robot.body_id, physicsClientId=world.client))]
    return frames, shapes


def test_the_camera_sees_the_same_arm_with_light_meshes(monkeypatch):
    rng = np.random.default_rng(3)
    with World(scene="franka_stacking", seed=0) as world:
        limits = world.robots["panda"].limits
    poses = [{name: rng.uniform(lim.lower, lim.upper) for name, lim in limits.items()} for _ in range(4)]
    full, full_shapes = render_panda_scene(1.0, poses, monkeypatch)
    light, light_shapes = render_panda_scene(robots.PANDA_VISUAL_KEEP, poses, monkeypatch)
    assert light_shapes == full_shapes
    seen = 0
    for (rgb_a, seg_a, body_a), (rgb_b, seg_b, body_b) in zip(full, light):
        arm_a, arm_b = (seg_a & 0xFFFFFF) == body_a, (seg_b & 0xFFFFFF) == body_b
        if arm_a.sum() < 200:
            continue                  # the arm is out of view in this pose
        seen += 1
        iou = (arm_a & arm_b).sum() / (arm_a | arm_b).sum()
        assert iou > 0.99, f"silhouette IoU {iou:.4f}"
        both = arm_a & arm_b
        off = (np.abs(rgb_a - rgb_b).max(axis=2) > 40)[both].mean()
        assert off < 0.03, f"{100 * off:.1f} % of the arm's pixels change colour"
        # what is not the arm is the same, but where the silhouettes differ
        rest = ~(arm_a | arm_b)
        assert (np.abs(rgb_a - rgb_b).max(axis=2)[rest] == 0).mean() > 0.999
    assert seen >= 2
