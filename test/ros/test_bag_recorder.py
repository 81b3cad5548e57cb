"""BagRecorder writes a rosbag2 bag with MCAP storage that an independent reader (rosbags,
no ROS) opens: every message that was sent is in it, decoded back to what was sent."""
from __future__ import annotations

import sys
import time

import pytest

from robot_tasks.ros.bag_recorder import BagError, BagRecorder
from robot_tasks.testing.ros_test_node import RosTestNode

pytestmark = pytest.mark.ros

N_JOINT_STATES, N_STATUS, N_CAMERA = 60, 25, 40


def test_bag_holds_every_sent_message_and_thins_a_rate_limited_topic(ros_env, launcher, ros_node, tmp_path):
    from rclpy.qos import QoSProfile, ReliabilityPolicy
    from rosbags.highlevel import AnyReader
    from sensor_msgs.msg import JointState
    from std_msgs.msg import String

    from robot_tasks.ros.bag_recorder import BagRecorder, BagTopic
    from robot_tasks_interfaces.msg import DetectedObject, DetectedObjectArray, TreeNodeStatus, TreeStatus

    bag_path = tmp_path / "bag"
    bag = ros_node.run_on_executor(lambda: BagRecorder(ros_node.node, bag_path, [
        BagTopic("bag_test/joint_states", "sensor_msgs/msg/JointState"),
        BagTopic("bag_test/tree_status", "robot_tasks_interfaces/msg/TreeStatus"),
        BagTopic("bag_test/camera", "std_msgs/msg/String", max_rate=5.0),
        BagTopic("bag_test/detections", "robot_tasks_interfaces/msg/DetectedObjectArray"),  # an empty-string constant
    ]), "create the recorder")
    qos = QoSProfile(depth=200, reliability=ReliabilityPolicy.RELIABLE)
    with RosTestNode("bag_test_publisher", ros_env, launcher=launcher) as sender:
        pubs = {name: sender.node.create_publisher(kind, f"bag_test/{name}", qos)
                for name, kind in (("joint_states", JointState), ("tree_status", TreeStatus), ("camera", String),
                                   ("detections", DetectedObjectArray))}
        for name in pubs:
            ros_node.wait_for_publisher(f"/bag_test/{name}")
            sender.wait_for_subscriber(f"/bag_test/{name}")
        for i in range(N_JOINT_STATES):
            pubs["joint_states"].publish(JointState(name=["j1", "j2"], position=[0.01 * i, -0.02 * i]))
        for i in range(N_STATUS):
            pubs["tree_status"].publish(TreeStatus(tree_id="T", tick_count=i, changes=[
                TreeNodeStatus(uid=i, name=f"n{i}", status="RUNNING")]))
        pubs["detections"].publish(DetectedObjectArray(objects=[DetectedObject(label="banana", confidence=0.9)]))
        for i in range(N_CAMERA):               # 40 messages within ~0.4 s: a 5 Hz limit keeps a few
            pubs["camera"].publish(String(data=f"frame {i}"))
            time.sleep(0.01)
        ros_node.wait_for(lambda: bag.counts["/bag_test/joint_states"] == N_JOINT_STATES
                          and bag.counts["/bag_test/tree_status"] == N_STATUS
                          and bag.counts["/bag_test/detections"] == 1, "every message recorded")
    counts = bag.close()
    assert 1 <= counts["/bag_test/camera"] <= 4

    read = {}
    with AnyReader([bag_path]) as reader:
        assert {c.topic: c.msgtype for c in reader.connections} == {
            "/bag_test/joint_states": "sensor_msgs/msg/JointState",
            "/bag_test/tree_status": "robot_tasks_interfaces/msg/TreeStatus",
            "/bag_test/camera": "std_msgs/msg/String",
            "/bag_test/detections": "robot_tasks_interfaces/msg/DetectedObjectArray"}
        for connection, stamp, raw in reader.messages():
            read.setdefault(connection.topic, []).append(reader.deserialize(raw, connection.msgtype))
    assert {topic: len(msgs) for topic, msgs in read.items()} == counts
    assert len(read["/bag_test/joint_states"]) == N_JOINT_STATES
    assert [list(m.position) for m in read["/bag_test/joint_states"]][7] == pytest.approx([0.07, -0.14])
    assert [m.tick_count for m in read["/bag_test/tree_status"]] == list(range(N_STATUS))
    assert read["/bag_test/tree_status"][3].changes[0].name == "n3"
    assert read["/bag_test/detections"][0].objects[0].label == "banana"
    assert (bag_path / "metadata.yaml").is_file() and list(bag_path.glob("*.mcap"))


def test_without_rosbags_the_recorder_says_which_extra_to_install(monkeypatch, tmp_path):
    monkeypatch.setitem(sys.modules, "rosbags.rosbag2", None)      # as if the extra were not installed
    with pytest.raises(BagError, match=r"needs rosbags, the package's 'record' extra: pip install 'robot_tasks\[record\]'"):
        BagRecorder(object(), tmp_path / "bag", [])
