"""Pre-serialized messages for the topics the stepping loop publishes most often.

rclpy's `Publisher.publish()` takes a message *or* its serialized bytes.  Converting
a message from Python is slow next to a ~40-90 us physics step: a JointState ~4 us
(nine name strings every time), an ObjectStateArray of four objects ~100 us (nested
messages).  joint_states and /clock go out up to ~5000 times per wall second at
real_time_factor 0.  So the node serializes a template once and, per publication,
only overwrites the stamp and the numbers at their byte offsets.

The offsets are not derived from CDR alignment rules by hand: they are *found* in
rclpy's own serialization of a template holding unique sentinel values, and the
result is checked by deserializing a probe once (WireLayoutError if anything is off).
"""
from __future__ import annotations

import struct
from array import array

from rclpy.serialization import deserialize_message, serialize_message
from sensor_msgs.msg import JointState

from robot_tasks.ros.errors import RosError
from robot_tasks_interfaces.msg import JointControllerState, ObjectState, ObjectStateArray

_STAMP = struct.Struct("<iI")            # builtin_interfaces/Time: int32 sec, uint32 nanosec
_SENTINEL_STAMP = (0x1234567, 0x7654321)
CDR_LE_HEADER = b"\x00\x01\x00\x00"      # encapsulation: plain CDR, little-endian


class WireLayoutError(RosError):
    """A template value could not be located in the serialized bytes."""


def split_stamp(seconds: float) -> tuple[int, int]:
    ns = int(round(seconds * 1e9))
    return ns // 1_000_000_000, ns % 1_000_000_000


def set_template_stamp(header) -> None:
    header.stamp.sec, header.stamp.nanosec = _SENTINEL_STAMP


def clock_bytes(seconds: float) -> bytes:
    """Serialized rosgraph_msgs/Clock (its CDR body is just the stamp's two integers)."""
    return CDR_LE_HEADER + _STAMP.pack(*split_stamp(seconds))


def exact_cdr(message) -> bytearray:
    """`serialize_message(message)` cut to the message's own bytes.

    rclpy's serialize_message returns its whole buffer: after the CDR data come a few
    bytes of whatever the buffer held (8 on this machine). Subscribers in ROS ignore
    them, but a strict CDR reader (rosbags, reading a recorded bag) rejects a message
    whose size is not its data's. The data's end is the shortest prefix rclpy still
    deserializes back to the same message.
    """
    data = serialize_message(message)
    kind = type(message)
    end = len(data)
    while end > len(CDR_LE_HEADER):
        try:
            if deserialize_message(data[:end - 1], kind) != message:
                break
        except Exception:  # noqa: BLE001 - rclpy raises RMWError for a too-short buffer
            break
        end -= 1
    return bytearray(data[:end])


def sentinels(block: int, n: int) -> list[float]:
    """n distinct doubles, distinct from every other block's (exact in binary)."""
    return [1e6 + 1000.0 * block + i + 0.25 for i in range(n)]


class SerializedTemplate:
    """Serialized bytes of `template` with a stamp and double vectors that can be rewritten.

    `vectors[k]` are the sentinel values the template holds in a run of consecutive
    doubles (one array field, or adjacent double fields such as a Pose then a Twist).
    """

    def __init__(self, template, vectors: list[list[float]]):
        self._buf = exact_cdr(template)
        self._stamp_at = self._find(_STAMP.pack(*_SENTINEL_STAMP), "stamp")
        self._slots = []
        for k, values in enumerate(vectors):
            packer = struct.Struct(f"<{len(values)}d")
            self._slots.append((packer.pack_into, self._find(packer.pack(*values), f"vector {k}")))

    def _find(self, needle: bytes, what: str) -> int:
        at = self._buf.find(needle)
        if at < 0 or self._buf.find(needle, at + 1) >= 0:
            raise WireLayoutError(f"serialized template: cannot locate the {what} uniquely")
        return at

    def serialize(self, seconds: float, vectors) -> bytes:
        """Bytes with this stamp and these vectors (same lengths as the sentinels)."""
        buf = self._buf
        _STAMP.pack_into(buf, self._stamp_at, *split_stamp(seconds))
        for (pack_into, at), values in zip(self._slots, vectors):
            pack_into(buf, at, *values)
        return bytes(buf)


class JointStateWire:
    """sensor_msgs/JointState bytes for fixed joint names."""

    def __init__(self, names):
        n = len(names)
        if n == 0:
            raise WireLayoutError("a JointState template needs at least one joint")
        vectors = [sentinels(k, n) for k in range(3)]
        template = JointState(name=list(names))
        set_template_stamp(template.header)
        template.position, template.velocity, template.effort = (array("d", v) for v in vectors)
        self._template = SerializedTemplate(template, vectors)
        probe = [[(k + 1) * 0.5 + i for i in range(n)] for k in range(3)]
        back = deserialize_message(self.serialize(12.5, *probe), JointState)
        if (back.header.stamp.sec, back.header.stamp.nanosec) != (12, 500_000_000) or \
                list(back.name) != list(names) or \
                [list(back.position), list(back.velocity), list(back.effort)] != probe:
            raise WireLayoutError("JointState template: patched bytes do not round-trip")

    def serialize(self, seconds: float, position, velocity, effort) -> bytes:
        return self._template.serialize(seconds, (position, velocity, effort))


class ObjectStatesWire:
    """robot_tasks_interfaces/ObjectStateArray bytes for a fixed list of objects.

    Each object's pose (position xyz, orientation xyzw) and twist (linear, angular) are
    13 consecutive doubles in the encoding; name, label and size are fixed.  Build a new
    one when the object set changes (a conveyor spawned a bin, a reset).
    """

    def __init__(self, states, frame_id: str):
        self.names = [s.name for s in states]
        template = ObjectStateArray()
        template.header.frame_id = frame_id
        set_template_stamp(template.header)
        vectors = []
        for k, s in enumerate(states):
            v = sentinels(k, 13)
            msg = ObjectState(name=s.name, label=s.label)
            msg.size.x, msg.size.y, msg.size.z = (float(x) for x in s.size)
            pos, o = msg.pose.position, msg.pose.orientation
            pos.x, pos.y, pos.z, o.x, o.y, o.z, o.w = v[:7]
            lin, ang = msg.twist.linear, msg.twist.angular
            lin.x, lin.y, lin.z, ang.x, ang.y, ang.z = v[7:]
            template.objects.append(msg)
            vectors.append(v)
        self._template = SerializedTemplate(template, vectors)
        probe = [[0.5 * k + 0.01 * i for i in range(13)] for k in range(len(states))]
        back = deserialize_message(self._template.serialize(3.25, probe), ObjectStateArray)
        got = [[o.pose.position.x, o.pose.position.y, o.pose.position.z, o.pose.orientation.x,
                o.pose.orientation.y, o.pose.orientation.z, o.pose.orientation.w, o.twist.linear.x,
                o.twist.linear.y, o.twist.linear.z, o.twist.angular.x, o.twist.angular.y,
                o.twist.angular.z] for o in back.objects]
        if got != probe or [o.name for o in back.objects] != self.names or back.header.frame_id != frame_id:
            raise WireLayoutError("ObjectStateArray template: patched bytes do not round-trip")

    def serialize(self, seconds: float, states) -> bytes:
        return self._template.serialize(seconds, [(*s.position, *s.orientation, *s.linear_velocity,
                                                   *s.angular_velocity) for s in states])


class ControllerStateWire:
    """robot_tasks_interfaces/JointControllerState bytes for fixed joint names: the stamp and
    the reference, feedback, error and output positions patched per control step (the sim
    publishes one per step per controller). One template per `mode` string ("position",
    "force"), as a different string changes the layout."""

    MODES = ("position", "force")

    def __init__(self, names):
        n = len(names)
        if n == 0:
            raise WireLayoutError("a JointControllerState template needs at least one joint")
        self._templates = {}
        for mode in self.MODES:
            vectors = [sentinels(k, n) for k in range(4)]
            template = JointControllerState(joint_names=list(names), mode=mode)
            set_template_stamp(template.header)
            template.reference.positions, template.feedback.positions, template.error.positions, \
                template.output = (array("d", v) for v in vectors)
            self._templates[mode] = SerializedTemplate(template, vectors)
            probe = [[(k + 1) * 0.5 + i for i in range(n)] for k in range(4)]
            back = deserialize_message(self._templates[mode].serialize(7.25, probe), JointControllerState)
            got = [list(back.reference.positions), list(back.feedback.positions), list(back.error.positions),
                   list(back.output)]
            if got != probe or back.mode != mode or list(back.joint_names) != list(names) or \
                    (back.header.stamp.sec, back.header.stamp.nanosec) != (7, 250_000_000):
                raise WireLayoutError("JointControllerState template: patched bytes do not round-trip")

    def serialize(self, seconds: float, reference, feedback, output, mode: str) -> bytes:
        error = [r - f for r, f in zip(reference, feedback)]
        return self._templates[mode].serialize(seconds, (reference, feedback, error, output))
