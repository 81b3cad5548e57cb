"""Message conversions of the perception_server (no processes, no DDS): Image -> arrays,
CameraInfo -> intrinsics, poses -> 4x4, Detection -> DetectedObject, goal checks."""
from __future__ import annotations

import math

import numpy as np
import pytest
from geometry_msgs.msg import PoseStamped
from sensor_msgs.msg import CameraInfo, Image

from robot_tasks.nodes.perception_server.camera_convert import (
    CameraModelError,
    intrinsics_from_camera_info,
    pose_from_list,
    pose_matrix_from_pose_stamped,
)
from robot_tasks.nodes.perception_server.detection_msgs import detected_objects, detection_array, keep
from robot_tasks.nodes.perception_server.goal_check import goal_problem
from robot_tasks.nodes.perception_server.image_convert import ImageConversionError, depth_from_image, rgb_from_image
from robot_tasks.perception import Detection, PixelBox, pose_from_position_quaternion
from robot_tasks_interfaces.msg import DetectedObject

RNG = np.random.default_rng(7)
RGB = RNG.integers(0, 256, size=(4, 5, 3), dtype=np.uint8)


def image(pixels: np.ndarray, encoding: str, pad: int = 0, big_endian: bool = False) -> Image:
    h, w = pixels.shape[:2]
    rows = pixels.reshape(h, -1).view(np.uint8) if pixels.dtype == np.uint8 else pixels.reshape(h, w).view(np.uint8)
    padded = np.concatenate([rows, np.full((h, pad), 0xAB, np.uint8)], axis=1)
    return Image(height=h, width=w, encoding=encoding, step=padded.shape[1], is_bigendian=int(big_endian),
                 data=padded.tobytes())


@pytest.mark.parametrize("encoding, to_wire", [
    ("rgb8", lambda rgb: rgb),
    ("bgr8", lambda rgb: rgb[..., ::-1]),
    ("rgba8", lambda rgb: np.dstack([rgb, np.full(rgb.shape[:2], 9, np.uint8)])),
    ("bgra8", lambda rgb: np.dstack([rgb[..., ::-1], np.full(rgb.shape[:2], 9, np.uint8)])),
])
@pytest.mark.parametrize("pad", [0, 3])
def test_colour_encodings_give_rgb(encoding, to_wire, pad):
    out = rgb_from_image(image(np.ascontiguousarray(to_wire(RGB)), encoding, pad))
    assert out.dtype == np.uint8 and out.shape == (4, 5, 3)
    np.testing.assert_array_equal(out, RGB)


@pytest.mark.parametrize("big_endian", [False, True])
def test_32fc1_depth_in_either_byte_order(big_endian):
    depth = np.array([[0.5, np.inf, np.nan], [0.0, 1.25, 2.0]], dtype=np.float32)
    wire = depth.astype(">f4" if big_endian else "<f4")
    out = depth_from_image(image(wire, "32FC1", pad=4, big_endian=big_endian))
    assert out.dtype == np.float32
    np.testing.assert_array_equal(out, depth)


def test_16uc1_millimetres_become_metres():
    mm = np.array([[0, 500, 1234]], dtype="<u2")
    out = depth_from_image(image(mm, "16UC1"))
    np.testing.assert_allclose(out, [[0.0, 0.5, 1.234]], rtol=1e-6)
    assert out[0, 0] == 0.0                      # "no return" stays no return


@pytest.mark.parametrize("msg, words", [
    (Image(height=2, width=2, encoding="mono8", step=2, data=bytes(4)), ["mono8", "rgb8", "bgr8"]),
    (Image(height=2, width=2, encoding="rgb8", step=6, data=bytes(5)), ["5 bytes", "12"]),
    (Image(height=2, width=2, encoding="rgb8", step=4, data=bytes(8)), ["step 4"]),
    (Image(height=0, width=2, encoding="rgb8", step=6), ["empty"]),
])
def test_bad_colour_images_raise_clear_errors(msg, words):
    with pytest.raises(ImageConversionError) as err:
        rgb_from_image(msg, "rgb image on /cam")
    assert "rgb image on /cam" in str(err.value)
    for word in words:
        assert word in str(err.value)


def test_unsupported_depth_encoding_names_what_works():
    with pytest.raises(ImageConversionError, match="'64FC1'.*32FC1.*16UC1"):
        depth_from_image(Image(height=1, width=1, encoding="64FC1", step=8, data=bytes(8)))


def camera_info(k, width=320, height=240) -> CameraInfo:
    return CameraInfo(width=width, height=height, k=[float(v) for v in k])


def test_camera_info_k_gives_intrinsics():
    k = intrinsics_from_camera_info(camera_info([200.0, 0, 160.0, 0, 210.0, 119.0, 0, 0, 1]))
    assert (k.fx, k.fy, k.cx, k.cy, k.width, k.height) == (200.0, 210.0, 160.0, 119.0, 320, 240)


@pytest.mark.parametrize("k", [[0.0] * 9, [200.0, 0, 160.0, 0, math.nan, 119.0, 0, 0, 1]])
def test_uncalibrated_camera_info_is_refused(k):
    with pytest.raises(CameraModelError, match="camera_info"):
        intrinsics_from_camera_info(camera_info(k))


def pose_msg(frame: str, xyz=(0.9, 0.0, 1.5), q=(0.6855, 0.6855, -0.1734, -0.1734)) -> PoseStamped:
    msg = PoseStamped()
    msg.header.frame_id = frame
    msg.pose.position.x, msg.pose.position.y, msg.pose.position.z = xyz
    o = msg.pose.orientation
    o.x, o.y, o.z, o.w = q
    return msg


@pytest.mark.parametrize("frame", ["world", "/world", ""])
def test_pose_stamped_in_the_world_frame(frame):
    t = pose_matrix_from_pose_stamped(pose_msg(frame), "world")
    np.testing.assert_allclose(t, pose_from_position_quaternion((0.9, 0.0, 1.5), (0.6855, 0.6855, -0.1734, -0.1734)))
    np.testing.assert_allclose(t[:3, :3] @ t[:3, :3].T, np.eye(3), atol=1e-9)


def test_pose_in_another_frame_is_refused_naming_it():
    with pytest.raises(CameraModelError, match="'base_link'.*'world'"):
        pose_matrix_from_pose_stamped(pose_msg("base_link"), "world")


@pytest.mark.parametrize("values, match", [
    ([1.0, 2.0, 3.0], "7 numbers"),
    ([0, 0, 1, 0, 0, 0, 0], "zero length"),
    ([0, 0, math.nan, 0, 0, 0, 1], "finite"),
])
def test_bad_pose_parameter(values, match):
    with pytest.raises(CameraModelError, match=match):
        pose_from_list(values)


def test_pose_parameter_accepts_ints():
    np.testing.assert_allclose(pose_from_list([1, 2, 3, 0, 0, 0, 1]),
                               [[1, 0, 0, 1], [0, 1, 0, 2], [0, 0, 1, 3], [0, 0, 0, 1]])


def detection(label, x, confidence=0.9, upside_down=None) -> Detection:
    return Detection(label=label, position=(x, 0.1, 0.65), orientation=(0.0, 0.0, 0.38268343, 0.92387953),
                     size=(0.05, 0.05, 0.05), confidence=confidence, pixel_count=100,
                     upside_down=upside_down, bbox=PixelBox(1, 2, 3, 4))


def test_detections_become_messages_with_unique_ids():
    found = [detection("bin", 0.3, upside_down=True), detection("bin", 0.5, upside_down=False),
             detection("red_cube", 0.4)]
    msgs = detected_objects(found)
    assert [m.id for m in msgs] == ["bin_1", "bin_2", "red_cube"]
    assert [m.orientation_class for m in msgs] == [DetectedObject.ORIENTATION_UPSIDE_DOWN,
                                                   DetectedObject.ORIENTATION_UPRIGHT,
                                                   DetectedObject.ORIENTATION_UNKNOWN]
    red = msgs[2]
    assert (red.pose.position.x, red.pose.position.y, red.pose.position.z) == (0.4, 0.1, 0.65)
    assert (red.pose.orientation.z, red.pose.orientation.w) == (0.38268343, 0.92387953)
    assert (red.size.x, red.confidence, red.label) == (0.05, 0.9, "red_cube")


def test_keep_filters_labels_and_confidence():
    found = [detection("bin", 0.3, 0.2), detection("red_cube", 0.4, 0.8), detection("blue_cube", 0.5, 0.5)]
    assert [d.label for d in keep(found)] == ["bin", "red_cube", "blue_cube"]
    assert [d.label for d in keep(found, ["red_cube", "bin"])] == ["bin", "red_cube"]
    assert [d.label for d in keep(found, (), 0.5)] == ["red_cube", "blue_cube"]


def test_detection_array_header():
    msg = detection_array([detection("red_cube", 0.4)], 12 * 10**9 + 345, "world")
    assert (msg.header.stamp.sec, msg.header.stamp.nanosec, msg.header.frame_id) == (12, 345, "world")
    assert [o.id for o in msg.objects] == ["red_cube"]


KNOWN = ["bin", "red_cube", "blue_cube"]


@pytest.mark.parametrize("labels, conf, timeout, problem", [
    ((), 0.0, 0.0, None),
    (("red_cube", "bin"), 1.0, 2.5, None),
    (("red_cube", "dragon"), 0.0, 0.0, "labels: unknown ['dragon']"),
    (("",), 0.0, 0.0, "labels"),
    ((), -0.1, 0.0, "min_confidence"),
    ((), math.nan, 0.0, "min_confidence"),
    ((), 0.5, -1.0, "timeout"),
    ((), 0.5, math.inf, "timeout"),
])
def test_goal_problem(labels, conf, timeout, problem):
    found = goal_problem(labels, conf, timeout, KNOWN)
    if problem is None:
        assert found is None
    else:
        assert found is not None and found.startswith(problem.split(":")[0]) and problem in found


def test_detection_markers_clear_the_last_frame_then_draw_each_box():
    from visualization_msgs.msg import Marker

    from robot_tasks.nodes.perception_server.detection_msgs import detection_markers

    array = detection_array([detection("red_cube", 0.4), detection("bin", 0.3)], 12_500_000_000, "world")
    clear, red, bin_ = detection_markers(array).markers
    assert clear.action == Marker.DELETEALL and clear.header.frame_id == "world"
    assert [m.text for m in (red, bin_)] == ["red_cube", "bin"] and red.id != bin_.id
    assert (red.header.stamp.sec, red.header.stamp.nanosec) == (12, 500_000_000)
    assert (bin_.scale.x, bin_.scale.y, bin_.scale.z) == (0.05, 0.05, 0.05)
    assert bin_.pose.position.x == 0.3 and bin_.pose.orientation.w == 0.92387953
    assert red.type == Marker.CUBE and 0 < red.color.a < 1
