"""Port values -> goal numbers (robot_tasks.ros.leaves.values): no ROS needed."""
import math

import pytest

from robot_tasks.ros.leaves.values import choice, parse_float_list, parse_pose, parse_string_list

IDENTITY = (0.0, 0.0, 0.0, 1.0)


def test_float_and_string_lists():
    assert parse_float_list("0.1; 0.2;3") == [0.1, 0.2, 3.0]
    assert parse_float_list([1, "2.5"]) == [1.0, 2.5]
    assert parse_float_list("") == []
    assert parse_string_list(" a; b ;;c") == ["a", "b", "c"]
    with pytest.raises(ValueError, match=r"positions\[1\]: 'x' is not a number"):
        parse_float_list("1;x", "positions")
    with pytest.raises(ValueError, match="not finite"):
        parse_float_list("1;nan")


@pytest.mark.parametrize("value, expected", [
    ("1;2;3", ((1.0, 2.0, 3.0), IDENTITY, None)),
    ([1, 2, 3, 0, 0, 0, 2], ((1.0, 2.0, 3.0), IDENTITY, None)),  # quaternion normalised
    ({"x": 1, "y": 2, "z": 3, "frame_id": "panda_link0"}, ((1.0, 2.0, 3.0), IDENTITY, "panda_link0")),
    ({"header": {"frame_id": "world"}, "pose": {"position": {"x": 1, "y": 2, "z": 3}}},
     ((1.0, 2.0, 3.0), IDENTITY, "world")),
    ({"label": "red_cube", "confidence": 0.9,
      "pose": {"position": {"x": 1, "y": 2, "z": 3}, "orientation": {"x": 0, "y": 0, "z": 0, "w": 1}}},
     ((1.0, 2.0, 3.0), IDENTITY, None)),
])
def test_pose_forms(value, expected):
    position, quaternion, frame = parse_pose(value)
    assert (position, frame) == (expected[0], expected[2])
    assert all(math.isclose(a, b) for a, b in zip(quaternion, expected[1]))


def test_pose_message_object():
    from geometry_msgs.msg import PoseStamped

    msg = PoseStamped()
    msg.header.frame_id = "world"
    msg.pose.position.z = 0.5
    msg.pose.orientation.w = 1.0
    assert parse_pose(msg) == ((0.0, 0.0, 0.5), IDENTITY, "world")


@pytest.mark.parametrize("value, message", [
    ("1;2", "expected 3"),
    ("1;2;3;0;0;0;0", "quaternion is zero"),
    ({"a": 1}, "needs x/y/z"),
    ({"x": "abc", "y": 0, "z": 0}, "pose.x: 'abc' is not a number"),
    (42, "can't read a pose"),
])
def test_bad_poses_say_why(value, message):
    with pytest.raises(ValueError, match=message):
        parse_pose(value)


def test_choice():
    assert choice("Planned", {"free": 0, "planned": 1}, "motion") == 1
    assert choice("0", {"free": 0, "planned": 1}, "motion") == 0
    with pytest.raises(ValueError, match="motion: 'fast' is not one of free|planned"):
        choice("fast", {"free": 0, "planned": 1}, "motion")
