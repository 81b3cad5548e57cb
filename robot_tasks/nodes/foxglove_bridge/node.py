"""FoxgloveBridge: the ROS graph's topics as Foxglove WebSocket channels, bytes unchanged.

What happens, in order:
1. The Foxglove SDK's WebSocket server starts on `address`:`port` (127.0.0.1:8765 by
   default), with an asset handler for the meshes of the robots' URDFs (assets.py).
2. Every `discovery_period` the node lists the graph's topics (all, or `topics`); each new
   one whose type it can import becomes a channel: schema = the type's concatenated .msg
   definition (encoding `ros2msg`, robot_tasks.ros.message_schemas), messages encoded `cdr`.
3. Every SUBSCRIBE_CHECK_S the node compares which channels have a Foxglove subscriber
   (`channel.has_sinks()`) with its own ROS subscriptions: it subscribes a topic when
   the first client subscribes and unsubscribes when the last one leaves, so an unwatched
   camera costs nothing.
4. A ROS subscription is *raw*: rclpy hands over the serialized CDR bytes, which go to
   the channel as they are -- no deserialize, no re-encode -- logged at the node's clock
   (sim time under use_sim_time, like the messages' stamps).
5. Every `<ns>/robot_description` it sees teaches the asset handler that URDF's meshes.

Topics of actions (`/_action/`) are left out (their types have no .msg file). All
rclpy work runs on the executor thread (timers and callbacks); the SDK calls only the
asset handler from its own threads.
"""
from __future__ import annotations

import importlib

import foxglove
from rclpy.node import Node
from rclpy.qos import DurabilityPolicy, QoSProfile, ReliabilityPolicy
from std_msgs.msg import String

from robot_tasks.nodes.foxglove_bridge.assets import AssetServer
from robot_tasks.nodes.foxglove_bridge.parameters import declare_bridge_parameters
from robot_tasks.ros.message_schemas import SchemaError, ros2msg_schema, split_type
from robot_tasks.ros.qos import LATCHED

SUBSCRIBE_CHECK_S = 0.1
SKIPPED_PARTS = ("/_action/",)
DESCRIPTION_SUFFIX = "/robot_description"


def import_message_type(type_name: str):
    """'pkg/msg/Name' -> the message class; None if it cannot be imported here."""
    try:
        package, name = split_type(type_name)
        return getattr(importlib.import_module(f"{package}.msg"), name, None)
    except (SchemaError, ImportError):
        return None


def subscription_qos(publishers) -> QoSProfile:
    """A QoS that receives from every publisher: best effort if any is, latched if all are."""
    best_effort = any(p.qos_profile.reliability == ReliabilityPolicy.BEST_EFFORT for p in publishers)
    latched = bool(publishers) and all(p.qos_profile.durability == DurabilityPolicy.TRANSIENT_LOCAL
                                       for p in publishers)
    return QoSProfile(depth=1 if latched else 10,
                      reliability=ReliabilityPolicy.BEST_EFFORT if best_effort else ReliabilityPolicy.RELIABLE,
                      durability=DurabilityPolicy.TRANSIENT_LOCAL if latched else DurabilityPolicy.VOLATILE)


class BridgedTopic:
    """One topic: its Foxglove channel, and a raw ROS subscription while someone watches."""

    def __init__(self, node: "FoxgloveBridge", topic: str, type_name: str, msg_type):
        self.node, self.topic, self.type_name, self.msg_type = node, topic, type_name, msg_type
        schema = foxglove.Schema(name=type_name, encoding="ros2msg", data=ros2msg_schema(type_name).encode())
        self.channel = foxglove.Channel(topic, schema=schema, message_encoding="cdr")
        self.subscription = None
        self.forwarded = 0

    def sync(self) -> None:
        """Subscribe while the channel has a Foxglove subscriber; unsubscribe after."""
        watched = self.channel.has_sinks()
        if watched and self.subscription is None:
            qos = subscription_qos(self.node.get_publishers_info_by_topic(self.topic))
            self.subscription = self.node.create_subscription(self.msg_type, self.topic, self.forward, qos, raw=True)
            self.node.get_logger().info(f"{self.topic}: a client watches it, forwarding")
        elif not watched and self.subscription is not None:
            self.node.destroy_subscription(self.subscription)
            self.subscription = None
            self.node.get_logger().info(f"{self.topic}: no client watches it, unsubscribed")

    def forward(self, data: bytes) -> None:
        self.channel.log(data, log_time=self.node.get_clock().now().nanoseconds)
        self.forwarded += 1

    def close(self) -> None:
        if self.subscription is not None:
            self.node.destroy_subscription(self.subscription)
            self.subscription = None
        self.channel.close()


class FoxgloveBridge(Node):
    def __init__(self, node_name: str = "foxglove_bridge", **kwargs):
        super().__init__(node_name, **kwargs)
        self.config = declare_bridge_parameters(self)
        self.assets = AssetServer()
        self.bridged: dict[str, BridgedTopic] = {}
        self._unusable: set[str] = set()                  # "topic type" pairs logged once
        self._descriptions: dict[str, object] = {}        # robot_description subscriptions
        self.server = foxglove.start_server(name="robot_tasks", host=self.config.address, port=self.config.port,
                                            asset_handler=self.assets)
        self.port = self.server.port
        self.url = f"ws://{self.config.address}:{self.port}"
        self.discover()
        self.create_timer(self.config.discovery_period, self.discover)
        self.create_timer(SUBSCRIBE_CHECK_S, self.sync_subscriptions)
        which = "every topic" if not self.config.topics else f"topics {self.config.topics}"
        self.get_logger().info(f"Foxglove WebSocket server on {self.url} (subprotocol foxglove.sdk.v1), "
                               f"serving {which}")

    def discover(self) -> None:
        """Make a channel for every new topic of the graph that is wanted and usable."""
        wanted = set(self.config.topics)
        for topic, types in self.get_topic_names_and_types():
            if topic in self.bridged or (wanted and topic not in wanted) or any(p in topic for p in SKIPPED_PARTS):
                continue
            type_name = types[0]
            if topic.endswith(DESCRIPTION_SUFFIX) and type_name == "std_msgs/msg/String":
                self._learn_meshes_of(topic)
            msg_type = import_message_type(type_name)
            try:
                if msg_type is None:
                    raise SchemaError(f"cannot import {type_name}")
                self.bridged[topic] = BridgedTopic(self, topic, type_name, msg_type)
            except SchemaError as err:
                if f"{topic} {type_name}" not in self._unusable:
                    self._unusable.add(f"{topic} {type_name}")
                    self.get_logger().warning(f"not serving {topic}: {err}")

    def _learn_meshes_of(self, topic: str) -> None:
        if topic not in self._descriptions:
            def learn(msg: String) -> None:
                count = self.assets.learn(msg.data)
                self.get_logger().info(f"{topic}: serving its {count} mesh files as assets")
            self._descriptions[topic] = self.create_subscription(String, topic, learn, LATCHED)

    def sync_subscriptions(self) -> None:
        for bridged in self.bridged.values():
            bridged.sync()

    def close(self) -> None:
        """Stop the WebSocket server (run_node calls this after the executor stopped)."""
        self.server.stop()
        for bridged in self.bridged.values():
            bridged.close()
