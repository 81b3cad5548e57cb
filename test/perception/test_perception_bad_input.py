"""Malformed frames raise a PerceptionInputError that names the argument; empty ones give []."""
from __future__ import annotations

import numpy as np
import pytest

from robot_tasks.perception import CameraIntrinsics, Detector, PerceptionInputError

K = CameraIntrinsics(fx=200.0, fy=200.0, cx=160.0, cy=119.0, width=320, height=240)
POSE = np.array([[1.0, 0, 0, 0], [0, -1.0, 0, 0], [0, 0, -1.0, 1.0], [0, 0, 0, 1.0]])  # looking down


def _frame(h=240, w=320):
    rgb = np.full((h, w, 3), 200, dtype=np.uint8)
    depth = np.full((h, w), 1.0, dtype=np.float32)
    return rgb, depth


@pytest.mark.parametrize("mutate, match", [
    (lambda rgb, depth: (rgb[..., 0], depth), "rgb: expected shape"),
    (lambda rgb, depth: (rgb.astype(np.float32), depth), "rgb: expected dtype uint8"),
    (lambda rgb, depth: (rgb, depth[:100]), "depth: expected shape"),
    (lambda rgb, depth: (rgb, (depth * 1000).astype(np.uint16)), "depth: expected float"),
    (lambda rgb, depth: (rgb[:120, :160], depth[:120, :160]), "intrinsics: describe a 320x240"),
])
def test_malformed_frames_are_rejected_with_the_argument_named(mutate, match):
    rgb, depth = mutate(*_frame())
    with pytest.raises(PerceptionInputError, match=match):
        Detector().detect(rgb, depth, K, POSE)


def test_bad_pose_and_intrinsics_types_are_rejected():
    rgb, depth = _frame()
    with pytest.raises(PerceptionInputError, match="world_T_camera"):
        Detector().detect(rgb, depth, K, np.full((4, 4), np.nan))
    with pytest.raises(PerceptionInputError, match="intrinsics: expected a CameraIntrinsics"):
        Detector().detect(rgb, depth, (200, 200, 160, 119), POSE)


@pytest.mark.parametrize("fill", [np.nan, np.inf, 0.0, -1.0])
def test_frame_without_depth_returns_nothing(fill):
    rgb, depth = _frame()
    rgb[100:140, 140:180] = (220, 20, 20)          # a red patch, but no depth behind it
    depth[:] = fill
    assert Detector().detect(rgb, depth, K, POSE) == []


def test_saturated_colour_without_shape_is_not_a_phantom():
    """A flat red sticker on the table (no height) and a red speck are no cubes."""
    rgb, depth = _frame()
    rgb[100:140, 140:180] = (220, 20, 20)          # flat: same depth as the table
    rgb[10:13, 10:13] = (220, 20, 20)              # too small
    depth[10:13, 10:13] = 0.95
    assert Detector().detect(rgb, depth, K, POSE) == []


def test_rgba_input_is_accepted():
    rgb, depth = _frame()
    rgba = np.concatenate([rgb, np.full((240, 320, 1), 255, np.uint8)], axis=2)
    assert Detector().detect(rgba, depth, K, POSE) == []


def test_bad_configuration_and_catalogue_are_rejected():
    from robot_tasks.perception import DetectorConfig, ObjectSpec
    from robot_tasks.perception.catalog import RED
    with pytest.raises(ValueError, match="min_pixels"):
        DetectorConfig(min_pixels=0)
    with pytest.raises(ValueError, match="max_depth"):
        DetectorConfig(max_depth=float("nan"))
    with pytest.raises(ValueError, match="unknown kind"):
        ObjectSpec("red_thing", "sphere", RED, (0.05, 0.05, 0.05))
    with pytest.raises(ValueError, match="square base"):
        ObjectSpec("red_brick", "cube", RED, (0.10, 0.05, 0.05))
