"""Leaves that read ROS topics: a freshness/field condition and a to-blackboard copier.

Both subscribe once (when the tree is created, if the topic is written literally in
the XML, else on the first tick) and keep only the latest message and the
monotonic time it arrived. Subscriptions are shared per (node, topic, type, qos),
so re-creating the tree for every run does not re-subscribe or lose the last
message. Ticks never wait: a leaf answers from what has arrived so far.

Message types are named like ``pkg/msg/Name`` (``sensor_msgs/msg/JointState``) and
imported by module and attribute name (no eval).

``TopicCondition``  SUCCESS when a message younger than ``max_age_ms`` has arrived
                    and (if ``field`` is set) that field equals ``expected``.
``TopicToBlackboard`` copies the latest message (or one ``field`` of it, as plain
                    dicts/lists/numbers) to the ``output`` port; FAILURE when there
                    is no (fresh enough) message.
"""
from __future__ import annotations

import importlib
import time
from dataclasses import dataclass
from typing import Any

import yaml

from robot_tasks.bt import ConditionNode, InputPort, NodeStatus, OutputPort, SyncActionNode
from robot_tasks.bt.errors import BehaviorTreeError
from robot_tasks.ros.yaml_message import is_message, message_to_dict

QOS_CHOICES = ("reliable", "best_effort", "latched")


def import_message_type(text: str):
    """``pkg/msg/Name`` or ``pkg/Name`` -> the message class; ValueError if unknown."""
    parts = text.strip().strip("/").split("/")
    if len(parts) == 2:
        parts = [parts[0], "msg", parts[1]]
    if len(parts) != 3 or parts[1] != "msg" or not all(p.isidentifier() for p in parts):
        raise ValueError(f"message type '{text}' is not of the form package/msg/Name")
    try:
        module = importlib.import_module(f"{parts[0]}.msg")
    except ImportError as exc:
        raise ValueError(f"cannot import message type '{text}': {exc}") from None
    cls = getattr(module, parts[2], None)
    if cls is None or not hasattr(cls, "get_fields_and_field_types"):
        raise ValueError(f"'{parts[0]}.msg' has no message named '{parts[2]}'")
    return cls


@dataclass
class LatestMessage:
    """What a shared subscription has received: the last message and when (monotonic s)."""

    message: Any = None
    received_at: float = 0.0
    count: int = 0

    def age(self) -> float:
        return time.monotonic() - self.received_at


def latest_message_of(ros_node, topic: str, msg_type, qos: str = "reliable") -> LatestMessage:
    """The shared LatestMessage for this topic, subscribing on first use."""
    if qos not in QOS_CHOICES:
        raise ValueError(f"qos '{qos}' is not one of {'|'.join(QOS_CHOICES)}")
    cache = ros_node.__dict__.setdefault("_robot_tasks_topic_cache", {})
    key = (topic, msg_type, qos)
    latest = cache.get(key)
    if latest is None:
        latest = LatestMessage()

        def store(message, latest=latest):
            latest.message = message
            latest.received_at = time.monotonic()
            latest.count += 1

        ros_node.create_subscription(msg_type, topic, store, _qos_profile(qos))
        cache[key] = latest
    return latest


def _qos_profile(name: str):
    from rclpy.qos import DurabilityPolicy, QoSProfile, ReliabilityPolicy

    if name == "best_effort":
        return QoSProfile(depth=1, reliability=ReliabilityPolicy.BEST_EFFORT)
    if name == "latched":
        return QoSProfile(depth=1, reliability=ReliabilityPolicy.RELIABLE,
                          durability=DurabilityPolicy.TRANSIENT_LOCAL)
    return QoSProfile(depth=1, reliability=ReliabilityPolicy.RELIABLE)


def message_field(message, path: str) -> Any:
    """The value at dotted `path` ("pose.position.z", "objects.0.label") as plain data."""
    value: Any = message
    for part in [p for p in path.split(".") if p]:
        if is_message(value):
            if part not in value.get_fields_and_field_types():
                raise ValueError(f"field '{path}': {type(value).__name__} has no field '{part}'")
            value = getattr(value, part)
        elif isinstance(value, dict):
            if part not in value:
                raise ValueError(f"field '{path}': no key '{part}'")
            value = value[part]
        else:
            try:
                value = list(value)[int(part)]
            except (TypeError, ValueError, IndexError):
                raise ValueError(f"field '{path}': can't take '{part}' of {type(value).__name__}") from None
    return to_plain(value)


def to_plain(value: Any) -> Any:
    """A message, sequence or scalar as plain Python data (for the blackboard)."""
    if is_message(value):
        return message_to_dict(value)
    if hasattr(value, "tolist") and not isinstance(value, (bytes, str)):  # numpy / array.array
        value = value.tolist()
    if isinstance(value, (list, tuple)):
        return [to_plain(v) for v in value]
    return value


class _TopicReader:
    """Mixin: the common ports and the shared subscription of topic leaves."""

    @staticmethod
    def topic_ports():
        return [
            InputPort("topic_name", str, description="topic to read"),
            InputPort("message_type", str, description="pkg/msg/Name, e.g. sensor_msgs/msg/JointState"),
            InputPort("max_age_ms", int, default=0, description="ignore messages older than this; 0 = any age"),
            InputPort("qos", str, default="reliable", description="reliable | best_effort | latched"),
        ]

    def _init_reader(self, ros_node) -> None:
        self.ros_node = ros_node  # None only when registered for validation (see register_nodes)
        self._latest = None
        if ros_node is None:
            return
        # Subscribe now when the ports are literals, so the first message is not missed.
        try:
            self._subscribe()
        except BehaviorTreeError:
            pass  # a port points to the blackboard: subscribe on the first tick

    def _subscribe(self) -> LatestMessage:
        if self.ros_node is None:
            raise BehaviorTreeError(f"{self.full_path}: {type(self).__name__} was registered without an "
                                    f"rclpy node; use register_ros_nodes(factory, ros_node)")
        if self._latest is None:
            msg_type = import_message_type(self.get_input("message_type"))
            self._latest = latest_message_of(self.ros_node, self.get_input("topic_name"), msg_type,
                                             self.get_input("qos"))
        return self._latest

    def fresh_message(self):
        """The latest message if one arrived within max_age_ms, else None."""
        latest = self._subscribe()
        if latest.message is None:
            return None
        max_age = self.get_input("max_age_ms") / 1000.0
        if max_age > 0 and latest.age() > max_age:
            return None
        return latest.message


class TopicCondition(_TopicReader, ConditionNode):
    """SUCCESS if a fresh message arrived on `topic_name` and, when `field` is set,
    its value equals `expected` (compared after reading `expected` as YAML, so
    "3", "true" and "red_cube" compare as number, bool and string)."""

    def __init__(self, name, config, ros_node):
        ConditionNode.__init__(self, name, config)
        self._init_reader(ros_node)

    @staticmethod
    def provided_ports():
        return _TopicReader.topic_ports() + [
            InputPort("field", str, default="", description="dotted field path; empty = freshness only"),
            InputPort("expected", str, default="", description="value the field must equal (YAML)"),
        ]

    def tick(self) -> NodeStatus:
        try:
            message = self.fresh_message()
            if message is None:
                return NodeStatus.FAILURE
            field = self.get_input("field")
            if not field:
                return NodeStatus.SUCCESS
            value = message_field(message, field)
            expected = yaml.safe_load(self.get_input("expected"))
        except (ValueError, yaml.YAMLError) as exc:
            raise BehaviorTreeError(f"node '{self.full_path}': {exc}") from None
        return NodeStatus.SUCCESS if value == expected else NodeStatus.FAILURE


class TopicToBlackboard(_TopicReader, SyncActionNode):
    """Copy the latest message on `topic_name` (or its `field`) to `output` as plain
    data (dicts, lists, numbers, strings). FAILURE when no fresh message arrived."""

    def __init__(self, name, config, ros_node):
        SyncActionNode.__init__(self, name, config)
        self._init_reader(ros_node)

    @staticmethod
    def provided_ports():
        return _TopicReader.topic_ports() + [
            InputPort("field", str, default="", description="dotted field path; empty = whole message"),
            OutputPort("output", description="where to write the value"),
        ]

    def tick(self) -> NodeStatus:
        try:
            message = self.fresh_message()
            if message is None:
                return NodeStatus.FAILURE
            value = message_field(message, self.get_input("field"))
        except ValueError as exc:
            raise BehaviorTreeError(f"node '{self.full_path}': {exc}") from None
        self.set_output("output", value)
        return NodeStatus.SUCCESS
