"""Recorded blackboard values decode to the same value: same type, same contents (no ROS)."""
from __future__ import annotations

import array
import datetime
import enum
import json
import math
import sys
from collections import namedtuple
from dataclasses import dataclass, field

import numpy as np
import pytest

from robot_tasks.bt.blackboard import EMPTY
from robot_tasks.bt.blackboard_json import register_json_type
from robot_tasks.bt.recording.values import Opaque, decode, encode


class Color(enum.IntEnum):
    RED = 1
    BLUE = 2


@dataclass(frozen=True)
class Layout:
    order: tuple
    base: tuple = (0.0, 0.0)
    extra: dict = field(default_factory=dict)


@dataclass(slots=True)
class Slotted:
    a: int
    b: list


Point = namedtuple("Point", "x y")


class Plain:
    def __init__(self, name):
        self.name = name
        self.seen = {"red": (1.0, 2.0)}

    def __eq__(self, other):
        return type(other) is Plain and other.__dict__ == self.__dict__


class Pose:
    def __init__(self, x=0.0):
        self.x = x

    def __eq__(self, other):
        return type(other) is Pose and other.x == self.x


register_json_type(Pose, lambda p: {"x": p.x}, lambda d: Pose(d["x"]), name="TestPose")


def round_trip(value):
    """encode -> JSON text -> decode, as a recording file does."""
    encoded = encode(value)
    text = json.dumps(encoded, allow_nan=False)
    back = decode(json.loads(text))
    assert encode(back) == encoded, "the decoded value must encode to what was recorded"
    return back


@pytest.mark.parametrize("value", [
    None, True, False, 0, -7, 2 ** 80, 1.5, "text", "", [1, 2.5, "a"], [], {"a": 1, "b": [True, None]},
    (1, "a"), (), ((1, 2), [3]), {1: "a", (2, 3): "b"}, {"__type": "not a tag"}, {"x": (1.0, 2.0)},
    {1, 2, 3}, frozenset({"a"}), b"\x00\xff", bytearray(b"ab"), 1 + 2j,
    Color.BLUE, Point(1, (2, 3)), Layout(("red", "blue"), (0.4, 0.2), {"k": (1,)}), Slotted(3, [1, 2]),
    Plain("cube"), Pose(0.25), datetime.datetime(2026, 12, 4, 23, 44, 6),
])
def test_values_come_back_equal_and_of_the_same_type(value):
    back = round_trip(value)
    assert type(back) is type(value)
    assert back == value


def test_nested_types_are_kept_inside_containers():
    value = {"stacked": ("red", "blue"), "poses": [Point(1, 2)], "flags": [True, 1]}
    back = round_trip(value)
    assert back["stacked"] == ("red", "blue") and type(back["poses"][0]) is Point
    assert [type(v) for v in back["flags"]] == [bool, int]


@pytest.mark.parametrize("special", [math.nan, math.inf, -math.inf])
def test_non_finite_floats_are_tagged_not_lost(special):
    encoded = encode([1.0, special])
    assert json.dumps(encoded, allow_nan=False)
    back = decode(encoded)[1]
    assert (math.isnan(back) and math.isnan(special)) or back == special


def test_bools_stay_bools_unlike_the_btcpp_blackboard_export():
    assert encode(True) is True and encode([True, 2]) == [True, 2]


def test_numpy_arrays_and_scalars_keep_dtype_and_shape():
    array2d = np.arange(6, dtype=np.float32).reshape(2, 3) / 3
    back = round_trip(array2d)
    assert back.dtype == np.float32 and back.shape == (2, 3) and np.array_equal(back, array2d)
    scalar = round_trip(np.int16(-4))
    assert type(scalar) is np.int16 and scalar == -4
    assert round_trip(np.array([True, False])).dtype == np.bool_


def test_array_array_of_a_ros_sequence_field():
    back = round_trip(array.array("d", [0.5, -1.0]))
    assert type(back) is array.array and back.typecode == "d" and list(back) == [0.5, -1.0]


def test_ros_messages_are_rebuilt_field_by_field(tmp_path, monkeypatch):
    package = tmp_path / "fake_msgs" / "msg"
    package.mkdir(parents=True)
    (tmp_path / "fake_msgs" / "__init__.py").write_text("")
    (package / "__init__.py").write_text("from fake_msgs.msg._point import Point\n")
    (package / "_point.py").write_text(
        "class Point:\n"
        "    __slots__ = ('_x', '_y')\n"
        "    _fields_and_field_types = {'x': 'double', 'y': 'double'}\n"
        "    @classmethod\n"
        "    def get_fields_and_field_types(cls):\n"
        "        return dict(cls._fields_and_field_types)\n"
        "    def __init__(self, x=0.0, y=0.0):\n"
        "        self._x, self._y = x, y\n"
        "    x = property(lambda self: self._x, lambda self, v: setattr(self, '_x', v))\n"
        "    y = property(lambda self: self._y, lambda self, v: setattr(self, '_y', v))\n"
        "    def __eq__(self, other):\n"
        "        return type(other) is type(self) and (other.x, other.y) == (self.x, self.y)\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    from fake_msgs.msg import Point as MsgPoint

    encoded = encode(MsgPoint(1.0, 2.0))
    assert encoded == {"__type": "ros_message", "class": "fake_msgs/msg/Point", "fields": {"x": 1.0, "y": 2.0}}
    assert round_trip(MsgPoint(1.0, 2.0)) == MsgPoint(1.0, 2.0)
    for name in [m for m in sys.modules if m.startswith("fake_msgs")]:
        monkeypatch.delitem(sys.modules, name)


def test_a_class_missing_here_decodes_to_an_opaque_value_that_encodes_back_the_same():
    recorded = {"__type": "object", "class": "no_such_module_here:Thing", "state": {"a": 1}}
    value = decode(recorded)
    assert isinstance(value, Opaque) and encode(value) == recorded
    assert isinstance(decode({"__type": "some_unregistered_json_type", "v": 1}), Opaque)


def test_an_empty_entry_and_local_classes():
    assert decode(encode(EMPTY)) is EMPTY

    class Local:
        def __init__(self):
            self.a = 1
    encoded = encode(Local())
    assert encoded["__type"] in ("pickle", "unencodable") and "Local" in json.dumps(encoded)


def test_real_ros_messages_when_they_are_installed():
    sensor_msgs = pytest.importorskip("sensor_msgs.msg")   # a message import starts no ROS
    joints = sensor_msgs.JointState(name=["a", "b"], position=[0.1, 0.2], effort=[1.0, 2.0])
    joints.header.stamp.sec = 3
    assert encode(joints)["class"] == "sensor_msgs/msg/JointState"
    assert round_trip(joints) == joints
    image = sensor_msgs.Image(height=1, width=2, encoding="rgb8", data=bytes(range(6)))
    assert round_trip(image) == image
