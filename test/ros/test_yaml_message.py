"""robot_tasks.ros.yaml_message with real generated message classes (no DDS)."""
from __future__ import annotations

import math

import numpy as np
import pytest
import yaml
from builtin_interfaces.msg import Duration, Time
from geometry_msgs.msg import PoseStamped
from rcl_interfaces.msg import ParameterDescriptor
from rmw_dds_common.msg import NodeEntitiesInfo
from sensor_msgs.msg import CameraInfo, Image
from std_msgs.msg import Byte, ByteMultiArray, Char, Header
from trajectory_msgs.msg import JointTrajectory

from robot_tasks.ros.yaml_message import (
    MessageFillError,
    fill_message,
    message_from_yaml,
    message_to_dict,
    message_to_yaml,
)
from robot_tasks_interfaces.action import DetectObjects, ExecuteTree, MoveToJoints, MoveToPose
from robot_tasks_interfaces.msg import DetectedObject, TreeStatus


def test_nested_goal_from_yaml():
    goal = message_from_yaml(MoveToPose.Goal, """
        target:
          header: {frame_id: world}
          pose:
            position: {x: 0.4, y: -0.1, z: 0.3}
            orientation: {x: 1.0, y: 0, z: 0, w: 0}
        motion: 2
        position_tolerance: 0.002
        velocity_scaling: 0.5
    """, "goal")
    assert isinstance(goal, MoveToPose.Goal)
    assert goal.target.header.frame_id == "world"
    assert (goal.target.pose.position.x, goal.target.pose.position.z) == (0.4, 0.3)
    assert goal.target.pose.orientation.y == 0.0 and isinstance(goal.target.pose.orientation.y, float)
    assert goal.motion == MoveToPose.Goal.CARTESIAN
    assert goal.timeout == 0.0  # untouched fields keep defaults


def test_empty_yaml_gives_defaults():
    assert message_from_yaml(MoveToPose.Goal, "") == MoveToPose.Goal()
    assert message_from_yaml(ExecuteTree.Goal, "  \n") == ExecuteTree.Goal()


@pytest.mark.parametrize("text, error", [
    ("{target: {pose: {position: {x: abc}}}}", "goal.target.pose.position.x: expected float, got 'abc'"),
    ("{target: {pose: {posit: {}}}}", "goal.target.pose.posit: unknown field 'posit' of geometry_msgs/Pose;"
                                      " fields are: position, orientation"),
    ("{motion: 256}", "goal.motion: 256 is out of range for uint8 [0, 255]"),
    ("{motion: -1}", "goal.motion: -1 is out of range for uint8"),
    ("{motion: 1.0}", "goal.motion: expected integer (uint8), got 1.0"),
    ("{motion: true}", "goal.motion: expected integer (uint8), got True"),
    ("{target: {header: {frame_id: 5}}}", "goal.target.header.frame_id: expected string (quote it), got 5"),
    ("{target: [1, 2]}", "goal.target: expected a mapping of PoseStamped fields, got [1, 2]"),
    ("[1, 2]", "goal: expected a mapping of MoveToPose_Goal fields, got [1, 2]"),
    ("{timeout: 1e400}", None),  # YAML gives the string '1e400' -> float inf: allowed
    ("{target: {pose: {position: {x: [1]}}}}", "goal.target.pose.position.x: expected float, got [1]"),
    ("{target: {header: {stamp: {sec: 1.5}}}}", "goal.target.header.stamp.sec: expected integer (int32)"),
    ("{motion: 1", "goal: invalid YAML at line 1"),
])
def test_errors_name_the_field_path_and_expected_type(text, error):
    if error is None:
        assert math.isinf(message_from_yaml(MoveToPose.Goal, text, "goal").timeout)
        return
    with pytest.raises(MessageFillError) as info:
        message_from_yaml(MoveToPose.Goal, text, "goal")
    assert str(info.value).startswith(error), str(info.value)


def test_float_accepts_ints_and_numeric_strings():
    goal = message_from_yaml(MoveToPose.Goal, "{position_tolerance: 1e-3, timeout: 5, velocity_scaling: .nan}")
    assert goal.position_tolerance == 0.001  # '1e-3' is a string in YAML 1.1
    assert goal.timeout == 5.0 and isinstance(goal.timeout, float)
    assert math.isnan(goal.velocity_scaling)  # passes the filler; servers reject it


def test_float32_range_is_checked():
    from std_msgs.msg import Float32
    with pytest.raises(MessageFillError, match=r"data: 1e\+39 is out of range for float32"):
        fill_message(Float32, {"data": 1e39}, "m")


def test_sequences_of_strings_and_floats():
    goal = message_from_yaml(MoveToJoints.Goal, "{joint_names: [j1, j2], positions: [0.1, -2]}")
    assert goal.joint_names == ["j1", "j2"]
    assert list(goal.positions) == [0.1, -2.0]
    with pytest.raises(MessageFillError, match=r"goal.positions\[1\]: expected float, got 'x'"):
        message_from_yaml(MoveToJoints.Goal, "{positions: [0.1, x]}", "goal")
    with pytest.raises(MessageFillError, match=r"goal.joint_names: expected a list \(string\[\]\), got 'j1'"):
        message_from_yaml(MoveToJoints.Goal, "{joint_names: j1}", "goal")


def test_sequence_of_messages_and_durations():
    traj = fill_message(JointTrajectory, {
        "joint_names": ["a"],
        "points": [{"positions": [1.0], "time_from_start": 1.25},
                   {"positions": [2.0], "time_from_start": {"sec": 3, "nanosec": 5}}],
    }, "traj")
    assert len(traj.points) == 2
    assert traj.points[0].time_from_start == Duration(sec=1, nanosec=250_000_000)
    assert traj.points[1].time_from_start == Duration(sec=3, nanosec=5)
    with pytest.raises(MessageFillError, match=r"traj.points\[1\].positions\[0\]: expected float"):
        fill_message(JointTrajectory, {"points": [{}, {"positions": ["a"]}]}, "traj")


def test_time_from_seconds_and_negative_durations():
    header = fill_message(Header, {"stamp": 12.5, "frame_id": "w"}, "h")
    assert header.stamp == Time(sec=12, nanosec=500_000_000)
    with pytest.raises(MessageFillError, match="out of range for Time"):
        fill_message(Header, {"stamp": -1.0}, "h")
    # durations may be negative: -0.25 s = -1 s + 0.75 s (nanosec stays in [0, 1e9))
    assert fill_message(Duration, {}, "d") == Duration()
    traj = fill_message(JointTrajectory, {"points": [{"time_from_start": -0.25}]}, "t")
    assert traj.points[0].time_from_start == Duration(sec=-1, nanosec=750_000_000)


def test_fixed_arrays_need_the_exact_length():
    info = fill_message(CameraInfo, {"k": [1, 0, 2, 0, 1, 3, 0, 0, 1], "d": [0.1, 0.2]}, "ci")
    assert isinstance(info.k, np.ndarray) and info.k.tolist() == [1, 0, 2, 0, 1, 3, 0, 0, 1]
    with pytest.raises(MessageFillError, match=r"ci.k: expected exactly 9 items, got 3"):
        fill_message(CameraInfo, {"k": [1, 2, 3]}, "ci")


def test_bytes_uint8_and_octet_sequences():
    img = fill_message(Image, {"height": 1, "width": 3, "data": [1, 2, 255]}, "img")
    assert list(img.data) == [1, 2, 255]
    img = fill_message(Image, {"data": b"\x00\x07"}, "img")  # YAML !!binary gives bytes
    assert list(img.data) == [0, 7]
    with pytest.raises(MessageFillError, match=r"img.data\[0\]: 256 is out of range for uint8"):
        fill_message(Image, {"data": [256]}, "img")
    arr = fill_message(ByteMultiArray, {"data": [1, 200]}, "b")
    assert arr.data == [b"\x01", b"\xc8"]
    assert message_to_dict(arr)["data"] == [1, 200]
    assert fill_message(Byte, {"data": 9}, "b").data == b"\x09"
    binary = message_from_yaml(Image, "data: !!binary AAE=", "img")
    assert list(binary.data) == [0, 1]


def test_msg_char_is_uint8():
    # in .msg files `char` is an alias of uint8 (std_msgs/Char.data is uint8)
    assert fill_message(Char, {"data": 65}, "c").data == 65
    with pytest.raises(MessageFillError, match=r"c.data: expected integer \(uint8\), got 'A'"):
        fill_message(Char, {"data": "A"}, "c")


def test_bounded_strings_and_sequences():
    ok = fill_message(NodeEntitiesInfo, {"node_name": "n" * 256}, "m")
    assert len(ok.node_name) == 256
    with pytest.raises(MessageFillError, match="m.node_name: expected string of at most 256 characters, got 257"):
        fill_message(NodeEntitiesInfo, {"node_name": "n" * 257}, "m")
    desc = fill_message(ParameterDescriptor, {"floating_point_range": [{"from_value": 0.0, "to_value": 1.0}]}, "p")
    assert desc.floating_point_range[0].to_value == 1.0
    with pytest.raises(MessageFillError, match="p.floating_point_range: expected at most 1 items, got 2"):
        fill_message(ParameterDescriptor, {"floating_point_range": [{}, {}]}, "p")


def test_round_trip_through_dict_and_yaml():
    result = DetectObjects.Result(error_code=0, message="ok")
    result.header.frame_id = "world"
    obj = DetectedObject(label="bin", id="bin_1", confidence=0.9,
                         orientation_class=DetectedObject.ORIENTATION_UPSIDE_DOWN)
    obj.pose.position.x = 0.5
    obj.size.z = 0.2
    result.objects = [obj]
    data = message_to_dict(result)
    assert data["objects"][0]["orientation_class"] == "upside_down"
    assert list(data) == ["error_code", "message", "header", "objects"]  # declaration order
    again = message_from_yaml(DetectObjects.Result, message_to_yaml(result))
    assert again == result


def test_numpy_arrays_become_lists_and_long_sequences_can_be_shortened():
    info = CameraInfo()
    info.k = [1.0] * 9
    data = message_to_dict(info)
    assert data["k"] == [1.0] * 9 and type(data["k"][0]) is float
    img = Image(data=list(range(100)))
    short = message_to_dict(img, max_items=3)
    assert short["data"] == [0, 1, 2, "... (97 more)"]
    yaml.safe_load(message_to_yaml(img, max_items=3))  # printable and parseable


def test_fill_accepts_a_message_instance_of_the_right_type_only():
    status = fill_message(TreeStatus, {"changes": [{"uid": 3, "status": "RUNNING"}]}, "s")
    assert status.changes[0].uid == 3
    with pytest.raises(MessageFillError, match="s.header: expected a mapping for Header"):
        fill_message(TreeStatus, {"header": PoseStamped()}, "s")
