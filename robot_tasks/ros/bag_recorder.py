"""BagRecorder: write chosen topics into a rosbag2 bag with MCAP storage, as `ros2 bag record` would.

A demonstration is kept as a bag, the format the ROS tools read (`ros2 bag info/play` with
the MCAP storage plugin) and any MCAP reader opens without ROS (the `rosbags` library,
Foxglove). The recorder is a plain subscriber: each topic is subscribed *raw* (the CDR
bytes as they came over DDS, never deserialized), stamped with the receive time on the
node's clock (sim time under use_sim_time, like `ros2 bag record --use-sim-time`), and
written by rosbags' rosbag2 writer. Message definitions for the bag's schema come from
the installed .msg files (robot_tasks.ros.message_schemas), so the project's own types
are self-describing in the bag too.

    bag = BagRecorder(ros.node, run_dir / "bag", [
        BagTopic("panda/joint_states", "sensor_msgs/msg/JointState"),
        BagTopic("camera/image_raw", "sensor_msgs/msg/Image", max_rate=1.0),   # thinned
    ])
    ...                                 # spin the node
    counts = bag.close()                # {topic: messages written}

`max_rate` keeps at most that many messages per second of a topic (a camera at a chosen
rate); 0 keeps all.
"""
from __future__ import annotations

import threading
from dataclasses import dataclass
from pathlib import Path

from rclpy.qos import QoSProfile, ReliabilityPolicy

from robot_tasks.ros.errors import RosError
from robot_tasks.ros.leaves.topic_nodes import import_message_type
from robot_tasks.ros.message_schemas import msg_text, ros2msg_schema, split_type

QUEUE = 1000


class BagError(RosError):
    """The bag cannot be created or written."""


@dataclass(frozen=True)
class BagTopic:
    name: str                 # resolved relative to the node's namespace
    msgtype: str              # pkg/msg/Name
    max_rate: float = 0.0     # messages per second kept; 0 = all
    best_effort: bool = False


def _typestore_for(msgtypes):
    """A rosbags typestore that knows every type in `msgtypes` (and their fields' types)."""
    from rosbags.typesys import Stores, get_types_from_msg, get_typestore

    store = get_typestore(Stores.ROS2_KILTED)
    wanted = {}
    for msgtype in msgtypes:
        for line in ros2msg_schema(msgtype).splitlines():
            if line.startswith("MSG: "):
                wanted.setdefault(line[5:].strip(), None)
        wanted.setdefault("/".join(split_type(msgtype)), None)
    for short in wanted:
        package, name = split_type(short)
        full = f"{package}/msg/{name}"
        if full not in store.fielddefs:
            store.register(get_types_from_msg(msg_text(package, name), full))
    return store


class BagRecorder:
    def __init__(self, node, path: Path, topics: list):
        try:
            from rosbags.rosbag2 import StoragePlugin, Writer
        except ModuleNotFoundError:
            raise BagError(f"recording {path} needs rosbags, the package's 'record' extra: "
                           f"pip install 'robot_tasks[record]' (make setup installs it)") from None

        self.path = Path(path)
        self._node = node
        self._lock = threading.Lock()
        self._closed = False
        try:
            self._writer = Writer(self.path, version=9, storage_plugin=StoragePlugin.MCAP)
            self._writer.open()
        except Exception as err:  # rosbags raises its own WriterError, or OSError
            raise BagError(f"cannot create the bag {self.path}: {err}") from None
        store = _typestore_for([t.msgtype for t in topics])
        self.counts = {}
        self._last = {}
        self._subscriptions = {}
        for topic in topics:
            qos = QoSProfile(depth=QUEUE, reliability=ReliabilityPolicy.BEST_EFFORT if topic.best_effort
                             else ReliabilityPolicy.RELIABLE)
            resolved = node.resolve_topic_name(topic.name)
            # the installed .msg texts as the schema (rosbags' own regenerated text drops the
            # quotes of an empty string constant, which its reader then cannot parse)
            connection = self._writer.add_connection(resolved, topic.msgtype, msgdef=ros2msg_schema(topic.msgtype),
                                                     rihs01=store.hash_rihs01(topic.msgtype))
            self.counts[resolved] = 0
            self._subscriptions[resolved] = node.create_subscription(
                import_message_type(topic.msgtype), topic.name,
                lambda data, c=connection, t=topic, r=resolved: self._write(c, t, r, data), qos, raw=True)

    def matched(self, topics) -> bool:
        """Whether DDS has matched the bag's subscriptions of `topics` with a publisher (a
        subscription gets nothing published before that)."""
        return all(self._subscriptions[self._node.resolve_topic_name(t)].get_publisher_count() > 0 for t in topics)

    def _write(self, connection, topic: BagTopic, resolved: str, data: bytes) -> None:
        now = self._node.get_clock().now().nanoseconds
        with self._lock:
            if self._closed:
                return
            if topic.max_rate > 0:
                last = self._last.get(resolved)
                if last is not None and now - last < 1e9 / topic.max_rate:
                    return
                self._last[resolved] = now
            self._writer.write(connection, now, data)
            self.counts[resolved] += 1

    def close(self) -> dict:
        """Finish the bag (metadata.yaml written); returns {topic: messages written}."""
        with self._lock:
            if not self._closed:
                self._closed = True
                self._writer.close()
        return dict(self.counts)
