"""The camera's cached static backdrop (robot_tasks/sim/backdrop.py) changes no pixel.

Each case compares a capture through the backdrop with one plain ER_TINY_RENDERER pass of
the same world, colour and depth buffer, exactly. The worlds are every registered scene
with a scene camera, after the robots moved and objects were displaced, so that moving
bodies stand in front of, behind and beside the static ones.
"""
from __future__ import annotations

import numpy as np
import pybullet as p
import pytest

from robot_tasks.sim import World
from robot_tasks.sim.backdrop import static_body_ids
from robot_tasks.sim.scenes import scene_names

pytestmark = pytest.mark.sim

SIZE = (160, 120)    # small frames keep the test fast; the composition does not depend on size


def full_render(cam):
    rgba, zbuf, _ = cam._render(False)
    return rgba.copy(), zbuf.copy()


def layered_render(cam):
    return cam._backdrop.compose(lambda: cam._render(False)[:2], (cam._view, cam._projection))


def stir(world, rng):
    """Move every robot's joints to random in-range positions and throw objects around."""
    for robot in world.robots.values():
        robot.reset_joints({name: rng.uniform(lim.lower, lim.upper) if lim.upper > lim.lower else 0.0
                            for name, lim in robot.limits.items()})
    for obj in world.objects.values():
        pos, orn = p.getBasePositionAndOrientation(obj.body_id, physicsClientId=world.client)
        p.resetBasePositionAndOrientation(obj.body_id, np.add(pos, rng.uniform(-0.15, 0.15, 3)) + [0, 0, 0.1],
                                          orn, physicsClientId=world.client)
    world.step(30)


def scenes_with_a_camera() -> list[str]:
    names = []
    for name in scene_names():
        with World(scene=name, seed=0) as world:
            if "scene" in world.cameras:
                names.append(name)
    return names


@pytest.mark.parametrize("scene", scenes_with_a_camera())
def test_the_backdrop_composite_is_the_full_render_pixel_for_pixel(scene):
    rng = np.random.default_rng(7)
    with World(scene=scene, seed=1) as world:
        assert static_body_ids(world), "every scene has a floor at least"
        world.step(60)
        cam = world.camera("scene").resized(*SIZE)
        for _ in range(3):
            rgba, zbuf = layered_render(cam)
            want_rgba, want_zbuf = full_render(cam)
            assert np.array_equal(zbuf, want_zbuf), f"{scene}: {int((zbuf != want_zbuf).sum())} depth pixels differ"
            assert np.array_equal(rgba, want_rgba), f"{scene}: {int((rgba != want_rgba).any(-1).sum())} pixels differ"
            assert (zbuf < 1.0).mean() > 0.5            # the picture shows the scene, not the void
            stir(world, rng)
        assert cam._backdrop.renders == 1                # drawn once, reused for every frame


def test_hidden_bodies_come_back_unchanged():
    with World(scene="franka_stacking", seed=0) as world:
        cam = world.camera("scene").resized(*SIZE)
        before = full_render(cam)
        cam.capture()
        cam.capture()
        after = full_render(cam)
        assert np.array_equal(before[0], after[0]) and np.array_equal(before[1], after[1])


def test_a_moved_static_body_or_another_view_draws_the_backdrop_again():
    with World(scene="franka_stacking", seed=0) as world:
        cam = world.camera("scene").resized(*SIZE)
        cam.capture()
        table = world.static_bodies["table"]
        pos, orn = p.getBasePositionAndOrientation(table, physicsClientId=world.client)
        p.resetBasePositionAndOrientation(table, np.add(pos, [0.1, 0.0, 0.0]), orn, physicsClientId=world.client)
        rgba, zbuf = layered_render(cam)
        assert cam._backdrop.renders == 2
        assert np.array_equal(rgba, full_render(cam)[0])
        cam.look_at(cam.position + [0.05, 0.0, 0.0], cam.target)
        rgba, zbuf = layered_render(cam)
        assert cam._backdrop.renders == 3
        assert np.array_equal(rgba, full_render(cam)[0]) and np.array_equal(zbuf, full_render(cam)[1])


def test_capture_still_gives_a_segmentation_mask_when_asked():
    with World(scene="franka_stacking", seed=0) as world:
        cam = world.camera("scene").resized(*SIZE)
        frame = cam.capture(segmentation=True)
        plain = cam.capture()
        assert frame.segmentation is not None and plain.segmentation is None
        assert np.array_equal(frame.rgb, plain.rgb) and np.array_equal(frame.depth, plain.depth)
