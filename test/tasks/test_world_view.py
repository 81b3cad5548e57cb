"""Reading detections and poses in every form the blackboard may hold them."""
from __future__ import annotations

import math

import pytest

from robot_tasks.tasks.world_view import (
    WorldViewError,
    position_of_pose,
    seen_by_label,
    seen_from_detection,
    yaw_from_quaternion,
)


def detection(label, x=0.5, y=0.1, z=0.65, yaw=0.0, confidence=0.9):
    return {"label": label, "id": label, "confidence": confidence,
            "pose": {"position": {"x": x, "y": y, "z": z},
                     "orientation": {"x": 0.0, "y": 0.0, "z": math.sin(yaw / 2), "w": math.cos(yaw / 2)}},
            "size": {"x": 0.05, "y": 0.05, "z": 0.05}}


def test_dict_detection_reads_position_yaw_size_confidence():
    seen = seen_from_detection(detection("red_cube", yaw=0.3))
    assert seen.label == "red_cube"
    assert seen.position == pytest.approx((0.5, 0.1, 0.65))
    assert seen.yaw == pytest.approx(0.3)
    assert seen.size == pytest.approx((0.05, 0.05, 0.05))
    assert seen.confidence == 0.9


def test_message_detection_is_read_too():
    from robot_tasks_interfaces.msg import DetectedObject, DetectedObjectArray

    msg = DetectedObject(label="blue_cube", confidence=0.5)
    msg.pose.position.x, msg.pose.orientation.w = 0.3, 1.0
    assert seen_from_detection(msg).position == (0.3, 0.0, 0.0)
    array = DetectedObjectArray(objects=[msg])
    assert list(seen_by_label(array)) == ["blue_cube"]


def test_most_confident_detection_of_a_label_wins():
    seen = seen_by_label([detection("red_cube", x=0.1, confidence=0.4), detection("red_cube", x=0.2, confidence=0.8),
                          detection("blue_cube")])
    assert seen["red_cube"].position[0] == 0.2 and set(seen) == {"red_cube", "blue_cube"}


def test_array_dict_and_empty_inputs():
    assert seen_by_label({"objects": [detection("a")]})["a"].label == "a"
    assert seen_by_label(None) == {} and seen_by_label([]) == {}


def test_zero_quaternion_means_yaw_zero():
    d = detection("a")
    d["pose"]["orientation"] = {"x": 0, "y": 0, "z": 0, "w": 0}
    seen = seen_from_detection(d)
    assert seen.yaw == 0.0 and seen.orientation is None and seen.tilt == 0.0


def test_the_whole_orientation_is_kept_and_a_tilt_read_from_it():
    # turned 0.4 about z, then tipped 0.3 rad about world x; given unnormalised
    cz, sz, cx, sx = math.cos(0.2), math.sin(0.2), math.cos(0.15), math.sin(0.15)
    q = (sx * cz, -sx * sz, cx * sz, cx * cz)              # q_x(0.3) * q_z(0.4)
    d = detection("a")
    d["pose"]["orientation"] = {k: 2.0 * v for k, v in zip("xyzw", q)}
    seen = seen_from_detection(d)
    assert seen.orientation == pytest.approx(q)
    assert seen.tilt == pytest.approx(0.3)
    assert seen.axes()[2] == pytest.approx((0.0, -math.sin(0.3), math.cos(0.3)))
    d["pose"]["orientation"] = dict(zip("xyzw", q))
    assert seen_from_detection(d).yaw == pytest.approx(yaw_from_quaternion(*q))   # as every reader of yaw had it


def test_a_level_detection_has_no_tilt_and_a_yaw_only_record_is_level():
    assert seen_from_detection(detection("a", yaw=1.1)).tilt == pytest.approx(0.0, abs=1e-7)
    from robot_tasks.tasks.world_view import Seen
    assert Seen("a", (0.0, 0.0, 0.0), yaw=0.7).tilt == 0.0
    assert Seen("a", (0.0, 0.0, 0.0), yaw=0.7).axes()[0] == pytest.approx((math.cos(0.7), math.sin(0.7), 0.0))


@pytest.mark.parametrize("bad, message", [
    ({"pose": {}}, "without a label"),
    ({"label": "a"}, "has no pose"),
    ({"label": "a", "pose": {"position": {"x": "nan?"}}}, "must be numbers"),
    ({"label": "a", "pose": {"position": {"x": float("nan")}}}, "finite"),
])
def test_malformed_detections_raise_naming_the_problem(bad, message):
    with pytest.raises(WorldViewError, match=message):
        seen_by_label([bad])


def test_non_list_detections_raise():
    with pytest.raises(WorldViewError):
        seen_by_label("red_cube")
    with pytest.raises(WorldViewError):
        seen_by_label(42)


def test_yaw_from_quaternion_round_trips():
    for yaw in (-3.0, -1.0, 0.0, 0.5, 3.0):
        assert yaw_from_quaternion(0, 0, math.sin(yaw / 2), math.cos(yaw / 2)) == pytest.approx(yaw)


@pytest.mark.parametrize("pose", [
    {"x": 1, "y": 2, "z": 3, "qw": 1},
    {"position": {"x": 1, "y": 2, "z": 3}},
    {"header": {"frame_id": "world"}, "pose": {"position": {"x": 1, "y": 2, "z": 3}}},
    "1;2;3", "1;2;3;0;0;0;1", [1, 2, 3], (1, 2, 3, 0, 0, 0, 1),
])
def test_position_of_pose_reads_every_form(pose):
    assert position_of_pose(pose) == (1.0, 2.0, 3.0)


def test_position_of_pose_message_and_error():
    from geometry_msgs.msg import PoseStamped

    msg = PoseStamped()
    msg.pose.position.z = 0.7
    assert position_of_pose(msg) == (0.0, 0.0, 0.7)
    with pytest.raises(WorldViewError, match="can't read a position"):
        position_of_pose("1;2")


def test_stamps():
    from robot_tasks.tasks.world_view import detections_stamp, stamp_seconds

    assert stamp_seconds({"sec": 3, "nanosec": 500_000_000}) == 3.5
    assert stamp_seconds(2) == 2.0 and stamp_seconds(None) is None and stamp_seconds({}) is None
    assert detections_stamp({"header": {"stamp": {"sec": 4, "nanosec": 0}}, "objects": []}) == 4.0
    assert detections_stamp({"header": {"stamp": {"sec": 0, "nanosec": 0}}, "objects": []}) is None
    assert detections_stamp([detection("a")]) is None and detections_stamp(None) is None
    from robot_tasks_interfaces.msg import DetectedObjectArray

    msg = DetectedObjectArray()
    msg.header.stamp.sec, msg.header.stamp.nanosec = 7, 250_000_000
    assert detections_stamp(msg) == 7.25
