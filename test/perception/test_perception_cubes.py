"""The issue's acceptance test and its neighbours: coloured cubes on a table, seen by a
camera rendered with PyBullet, detected and compared with PyBullet's ground truth."""
from __future__ import annotations

import math

import numpy as np
import pytest
from perception_scenes import CUBE, OBLIQUE, TABLE_TOP, TOP_DOWN, TableScene, random_cube_scene

from robot_tasks.perception import Detector
from robot_tasks.perception.geometry import matrix_from_quat

pytestmark = pytest.mark.sim
FOUR = ["blue_cube", "green_cube", "red_cube", "yellow_cube"]


def _yaw(q) -> float:
    r = matrix_from_quat(q)
    return math.atan2(r[1, 0], r[0, 0])


def _cube_yaw_error_deg(a, b) -> float:
    """Yaw difference modulo a quarter turn (a cube's symmetry), in degrees."""
    return abs(math.degrees((a - b + math.pi / 4) % (math.pi / 2) - math.pi / 4))


def _run_seeds(camera, width, height, seeds):
    detector = Detector()
    errors, yaw_errors = [], []
    for seed in seeds:
        with random_cube_scene(seed) as scene:
            frame = scene.render(**camera, width=width, height=height)
            found = detector.detect(frame.rgb, frame.depth, frame.intrinsics, frame.world_T_camera)
            assert [d.label for d in found] == FOUR, f"seed {seed}: {[d.label for d in found]}"
            for d in found:
                pos, orn = scene.pose(d.label)
                errors.append(float(np.linalg.norm(np.asarray(d.position) - pos)))
                yaw_errors.append(_cube_yaw_error_deg(_yaw(d.orientation), _yaw(orn)))
                assert 0.0 < d.confidence <= 1.0
                assert d.upside_down is None
    return np.array(errors), np.array(yaw_errors)


def test_four_cubes_in_20_seeded_scenes_median_error_within_1cm():
    """Acceptance (issue 5): all four found, right labels, nothing else, median error <= 1 cm."""
    errors, yaw_errors = _run_seeds(OBLIQUE, 640, 480, range(20))
    assert errors.size == 80
    assert np.median(errors) <= 0.01
    assert errors.max() <= 0.01          # in fact every cube, not just the median
    assert np.median(yaw_errors) <= 2.0


def test_low_resolution_top_down_camera():
    errors, yaw_errors = _run_seeds(TOP_DOWN, 320, 240, range(100, 110))
    assert np.median(errors) <= 0.01
    assert errors.max() <= 0.015
    assert np.median(yaw_errors) <= 3.0


def test_detections_come_in_a_stable_order_and_are_repeatable():
    detector = Detector()
    with random_cube_scene(7) as scene:
        frame = scene.render(**OBLIQUE, width=320, height=240)
        first = detector.detect(frame.rgb, frame.depth, frame.intrinsics, frame.world_T_camera)
        second = detector.detect(frame.rgb, frame.depth, frame.intrinsics, frame.world_T_camera)
    assert first == second
    assert [d.sort_key() for d in first] == sorted(d.sort_key() for d in first)


def test_empty_table_gives_no_detections():
    with TableScene() as scene:
        frame = scene.render(**OBLIQUE, width=320, height=240)
    assert Detector().detect(frame.rgb, frame.depth, frame.intrinsics, frame.world_T_camera) == []


def test_stacked_cubes_are_both_found_at_their_heights():
    with TableScene() as scene:
        scene.add_cube("blue", (0.5, 0.05), yaw=0.2)
        scene.add_cube("red", (0.5, 0.05), yaw=0.6, z=TABLE_TOP + 1.5 * CUBE)
        frame = scene.render(**OBLIQUE, width=640, height=480)
        found = {d.label: d for d in Detector().detect(frame.rgb, frame.depth, frame.intrinsics,
                                                       frame.world_T_camera)}
        assert sorted(found) == ["blue_cube", "red_cube"]
        for label in found:
            pos, _ = scene.pose(label)
            assert np.linalg.norm(np.asarray(found[label].position) - pos) < 0.01
        # The blue cube's top is hidden under the red one: only its sides show, so it is
        # either fitted from them or flagged as partly hidden, never placed on top.
        assert found["blue_cube"].position[2] < found["red_cube"].position[2] - 0.03


def test_cube_cut_by_the_image_border_is_placed_from_its_visible_side():
    """Half a cube outside the picture: the centre comes from the visible edges and the
    known size, and the detection says it is truncated."""
    with TableScene() as scene:
        probe = scene.render(**TOP_DOWN, width=320, height=240)
        # World point seen at the middle of the image's left border (column 0, row 119).
        k, t = probe.intrinsics, probe.world_T_camera
        depth = TOP_DOWN["eye"][2] - (TABLE_TOP + CUBE)
        left = t[:3, :3] @ np.array([(0 - k.cx) / k.fx * depth, (119 - k.cy) / k.fy * depth, depth]) + t[:3, 3]
        # Put the cube's centre 1 cm inside the border: 70 % of its top face shows.
        inward = t[:3, 0]                           # optical x = image right, in the world
        xy = left[:2] + 0.01 * inward[:2] / np.linalg.norm(inward[:2])
        scene.add_cube("green", xy, yaw=0.0)
        frame = scene.render(**TOP_DOWN, width=320, height=240)
        found = Detector().detect(frame.rgb, frame.depth, frame.intrinsics, frame.world_T_camera)
        assert [d.label for d in found] == ["green_cube"]
        d = found[0]
        assert d.truncated
        assert d.bbox.u_min == 0
        pos, _ = scene.pose("green_cube")
        assert np.linalg.norm(np.asarray(d.position) - pos) < 0.006
        assert d.confidence < 0.95        # less seen, less sure


def test_cube_mostly_outside_the_picture_is_dropped_not_guessed():
    with TableScene() as scene:
        probe = scene.render(**TOP_DOWN, width=320, height=240)
        k, t = probe.intrinsics, probe.world_T_camera
        depth = TOP_DOWN["eye"][2] - (TABLE_TOP + CUBE)
        left = t[:3, :3] @ np.array([(0 - k.cx) / k.fx * depth, 0.0, depth]) + t[:3, 3]
        inward = t[:3, 0]
        scene.add_cube("red", left[:2] - 0.022 * inward[:2] / np.linalg.norm(inward[:2]))
        frame = scene.render(**TOP_DOWN, width=320, height=240)
        found = Detector().detect(frame.rgb, frame.depth, frame.intrinsics, frame.world_T_camera)
    assert found == [] or (found[0].label == "red_cube" and found[0].truncated)


def test_cube_partly_hidden_behind_a_nearer_object():
    """A tall grey board between camera and cube hides the cube's +y half: the hidden
    side is recognised, the centre is put from the visible side, and it says so."""
    with TableScene() as scene:
        scene.add_cube("yellow", (0.45, 0.0), yaw=0.0)
        # The camera looks from +x; the board covers y in [0, 0.08] just in front of the cube.
        scene.add_box("board", "grey", (0.005, 0.04, 0.08), (0.52, 0.04))
        frame = scene.render(eye=(0.9, 0.0, 0.95), target=(0.45, 0.0, TABLE_TOP), width=640, height=480)
        found = Detector().detect(frame.rgb, frame.depth, frame.intrinsics, frame.world_T_camera)
        assert [d.label for d in found] == ["yellow_cube"]
        d = found[0]
        assert d.truncated
        pos, _ = scene.pose("yellow_cube")
        assert np.linalg.norm(np.asarray(d.position) - pos) < 0.01
        assert d.confidence < 0.8


def test_noisy_depth_with_holes_and_noisy_colour():
    """A real sensor's flaws: 2 mm depth noise, 2 % pixels without return, colour noise."""
    rng = np.random.default_rng(0)
    detector, errors = Detector(), []
    for seed in range(200, 208):
        with random_cube_scene(seed) as scene:
            frame = scene.render(**OBLIQUE, width=640, height=480)
            depth = frame.depth + rng.normal(0.0, 0.002, frame.depth.shape).astype(np.float32)
            depth[rng.random(depth.shape) < 0.02] = 0.0
            rgb = np.clip(frame.rgb + rng.normal(0.0, 6.0, frame.rgb.shape), 0, 255).astype(np.uint8)
            found = detector.detect(rgb, depth, frame.intrinsics, frame.world_T_camera)
            assert [d.label for d in found] == FOUR, f"seed {seed}"
            errors += [float(np.linalg.norm(np.asarray(d.position) - scene.pose(d.label)[0])) for d in found]
    assert np.median(errors) <= 0.005
    assert max(errors) <= 0.01


def test_finished_tower_of_four_seen_from_the_side():
    """The stacking task's goal state: lower cubes show only their sides and the corners
    of their tops that the rotated cube above leaves free."""
    rng = np.random.default_rng(3)
    with TableScene() as scene:
        for i, color in enumerate(("red", "blue", "green", "yellow")):
            scene.add_cube(color, (0.5 + rng.uniform(-0.005, 0.005), rng.uniform(-0.005, 0.005)),
                           yaw=float(rng.uniform(-0.3, 0.3)), z=TABLE_TOP + CUBE / 2 + i * CUBE)
        frame = scene.render(**OBLIQUE, width=640, height=480)
        found = Detector().detect(frame.rgb, frame.depth, frame.intrinsics, frame.world_T_camera)
        assert [d.label for d in found] == FOUR
        for d in found:
            assert np.linalg.norm(np.asarray(d.position) - scene.pose(d.label)[0]) < 0.01, d.label
        by_label = {d.label: d for d in found}
        assert not by_label["yellow_cube"].truncated                   # the top one is whole
        assert all(by_label[c].truncated for c in ("red_cube", "blue_cube", "green_cube"))


def test_cube_held_under_a_hand():
    """A cube lifted 20 cm with a hand on top and fingers at its sides: only its sides
    show to an oblique camera; straight above, nothing shows and nothing is reported."""
    def build(scene):
        z, yaw = TABLE_TOP + 0.2, 0.3
        scene.add_cube("red", (0.5, 0.05), yaw=yaw, z=z)
        scene.add_box("hand", "grey", (0.03, 0.1, 0.02), (0.5, 0.05), yaw=yaw, z=z + CUBE / 2 + 0.02)
        for sign in (1, -1):
            scene.add_box(f"finger{sign}", "grey", (0.01, 0.01, 0.025),
                          (0.5 + sign * 0.035 * math.cos(yaw), 0.05 + sign * 0.035 * math.sin(yaw)),
                          yaw=yaw, z=z)

    with TableScene() as scene:
        build(scene)
        frame = scene.render(**OBLIQUE, width=640, height=480)
        found = Detector().detect(frame.rgb, frame.depth, frame.intrinsics, frame.world_T_camera)
        assert [d.label for d in found] == ["red_cube"]
        error = np.asarray(found[0].position) - scene.pose("red_cube")[0]
        assert np.linalg.norm(error[:2]) < 0.005 and abs(error[2]) < 0.015
        assert found[0].truncated
        frame = scene.render(**TOP_DOWN, width=640, height=480)
        assert Detector().detect(frame.rgb, frame.depth, frame.intrinsics, frame.world_T_camera) == []
