"""Open bins: pose, size, and which side is up."""
from __future__ import annotations

import math

import numpy as np
import pytest
from perception_scenes import OBLIQUE, TOP_DOWN, TableScene

from robot_tasks.perception import Detector
from robot_tasks.perception.geometry import matrix_from_quat

pytestmark = pytest.mark.sim
BIN = (0.30, 0.20, 0.12)


def _yaw(q) -> float:
    r = matrix_from_quat(q)
    return math.atan2(r[1, 0], r[0, 0])


@pytest.mark.parametrize("camera", [OBLIQUE, TOP_DOWN], ids=["oblique", "top_down"])
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_upright_and_upside_down_bins_are_told_apart(camera, seed):
    rng = np.random.default_rng(seed)
    flipped_first = bool(seed % 2)
    with TableScene() as scene:
        # Two bins side by side, one of each, with seeded yaws; which one is flipped alternates.
        for name, y, flip in (("left", 0.14, flipped_first), ("right", -0.14, not flipped_first)):
            scene.add_open_bin(name, "bin", BIN, (0.5 + rng.uniform(-0.03, 0.03), y),
                               yaw=float(rng.uniform(-0.3, 0.3)), upside_down=flip)
        frame = scene.render(**camera, width=640, height=480)
        found = Detector().detect(frame.rgb, frame.depth, frame.intrinsics, frame.world_T_camera)
        assert [d.label for d in found] == ["bin", "bin"]
        for name, flip in (("left", flipped_first), ("right", not flipped_first)):
            pos, orn = scene.pose(name)
            d = min(found, key=lambda det: np.linalg.norm(np.asarray(det.position) - pos))
            assert d.upside_down is flip, f"{name} bin"
            assert np.linalg.norm(np.asarray(d.position) - pos) < 0.01
            yaw_err = (_yaw(d.orientation) - _yaw(orn) + math.pi / 2) % math.pi - math.pi / 2
            assert abs(math.degrees(yaw_err)) < 3.0
            assert d.size == pytest.approx(BIN, abs=0.015)
            assert d.confidence > 0.6


def test_closed_box_of_bin_size_reads_as_upside_down():
    """A closed top at rim height is exactly what an upside-down bin shows."""
    with TableScene() as scene:
        scene.add_box("crate", "bin", (0.15, 0.10, 0.06), (0.5, 0.0), yaw=0.4)
        frame = scene.render(**OBLIQUE, width=320, height=240)
        found = Detector().detect(frame.rgb, frame.depth, frame.intrinsics, frame.world_T_camera)
    assert [(d.label, d.upside_down) for d in found] == [("bin", True)]


def test_bin_and_cube_of_similar_blue_are_not_confused():
    with TableScene() as scene:
        scene.add_open_bin("bin", "bin", BIN, (0.45, 0.12))
        scene.add_cube("blue", (0.55, -0.15), yaw=0.3)
        frame = scene.render(**OBLIQUE, width=640, height=480)
        found = Detector().detect(frame.rgb, frame.depth, frame.intrinsics, frame.world_T_camera)
    assert [(d.label, d.upside_down) for d in found] == [("bin", False), ("blue_cube", None)]


def _up_normal(q) -> np.ndarray:
    """The bin's face that looks up: its z axis, or -z when it lies upside down."""
    z_axis = matrix_from_quat(q)[:, 2]
    return z_axis if z_axis[2] >= 0 else -z_axis


@pytest.mark.parametrize("camera", [OBLIQUE, TOP_DOWN], ids=["oblique", "top_down"])
@pytest.mark.parametrize("upside_down", [False, True], ids=["upright", "upside_down"])
@pytest.mark.parametrize("pitch_deg", [-15.0, 12.0])
def test_a_tilted_bin_is_found_with_its_tilt(camera, upside_down, pitch_deg):
    """A bin with one end up on a ledge: the height band of a level bin would hold only a
    strip of its top; measured along its face's normal it is whole, and reports the tilt."""
    pitch = math.radians(pitch_deg)
    with TableScene() as scene:
        scene.add_open_bin("bin", "bin", BIN, (0.5, 0.02), yaw=0.2, upside_down=upside_down, pitch=pitch,
                           z=0.625 + 0.06 + 0.05)
        frame = scene.render(**camera, width=640, height=480)
        found = Detector().detect(frame.rgb, frame.depth, frame.intrinsics, frame.world_T_camera)
        pos, orn = scene.pose("bin")
    assert [d.label for d in found] == ["bin"]
    d = found[0]
    assert d.upside_down is upside_down
    assert np.linalg.norm(np.asarray(d.position) - pos) < 0.012
    truth_n, seen_n = _up_normal(orn), _up_normal(d.orientation)
    tilt = math.degrees(math.acos(float(seen_n[2])))
    assert tilt == pytest.approx(abs(pitch_deg), abs=2.0)
    assert math.degrees(math.acos(min(1.0, float(seen_n @ truth_n)))) < 2.0
    assert d.size[:2] == pytest.approx(BIN[:2], abs=0.02)
    assert d.confidence > 0.5


def test_a_level_bin_reports_no_tilt():
    with TableScene() as scene:
        scene.add_open_bin("bin", "bin", BIN, (0.5, 0.0), yaw=0.3, upside_down=True)
        frame = scene.render(**OBLIQUE, width=640, height=480)
        found = Detector().detect(frame.rgb, frame.depth, frame.intrinsics, frame.world_T_camera)
    assert len(found) == 1
    assert _up_normal(found[0].orientation) == pytest.approx([0.0, 0.0, 1.0], abs=1e-9)
