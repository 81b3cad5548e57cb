"""Nobody on /tf: the state_publisher decodes and computes nothing; a subscriber: it does.

A unit test of the gate in RobotTransforms (the rest of the node, over DDS against the
sim, is test_state_publisher.py): a stand-in node records what would be published, the
joint_states arrive serialized exactly as rclpy hands them to a raw subscription.
"""
from __future__ import annotations

import numpy as np
from rclpy.serialization import serialize_message
from sensor_msgs.msg import JointState

from robot_tasks.control.pose import Pose
from robot_tasks.nodes.state_publisher.node import RobotTransforms
from robot_tasks.nodes.state_publisher.parameters import RobotFrames

URDF = """<robot name="two_links">
  <link name="base"/><link name="arm"/>
  <joint name="shoulder" type="revolute"><parent link="base"/><child link="arm"/>
    <origin xyz="0 0 0.1"/><axis xyz="0 0 1"/><limit lower="-3" upper="3" effort="1" velocity="1"/></joint>
</robot>"""


class Publisher:
    def __init__(self, subscribers: int):
        self.subscribers, self.sent = subscribers, []

    def get_subscription_count(self) -> int:
        return self.subscribers

    def publish(self, msg) -> None:
        self.sent.append(msg)


class StandInNode:
    def __init__(self, tf_subscribers: int):
        self.tf_pub = Publisher(tf_subscribers)
        self.subscriptions = {}

    def create_subscription(self, _type, topic, callback, _qos, raw=False):
        self.subscriptions[topic] = (callback, raw)
        return topic


def robot_with_tree(tf_subscribers: int) -> tuple[StandInNode, RobotTransforms]:
    from robot_tasks.control.frame_tree import FrameTree

    node = StandInNode(tf_subscribers)
    robot = RobotTransforms(node, RobotFrames("panda", "panda/", Pose.from_matrix(np.eye(4))))
    robot.tree = FrameTree.from_urdf_string(URDF, "test")
    return node, robot


def serialized_joint_state(position: float) -> bytes:
    msg = JointState(name=["shoulder"], position=[position])
    msg.header.stamp.sec = 7
    return serialize_message(msg)


def test_joint_states_are_subscribed_serialized_and_only_on_demand():
    node, robot = robot_with_tree(0)
    assert "panda/joint_states" not in node.subscriptions     # the node subscribes while /tf is watched
    assert robot.subscribe_joint_states() == "panda/joint_states"
    _callback, raw = node.subscriptions["panda/joint_states"]
    assert raw is True


def test_no_tf_subscriber_no_transforms():
    node, robot = robot_with_tree(0)
    robot.on_serialized_joint_states(serialized_joint_state(0.5))
    assert node.tf_pub.sent == []


def test_a_tf_subscriber_gets_the_decoded_state():
    node, robot = robot_with_tree(1)
    robot.on_serialized_joint_states(serialized_joint_state(0.5))
    assert len(node.tf_pub.sent) == 1
    transform = node.tf_pub.sent[0].transforms[0]
    assert (transform.header.frame_id, transform.child_frame_id) == ("panda/base", "panda/arm")
    assert transform.header.stamp.sec == 7
    assert abs(transform.transform.rotation.z - 0.2474) < 1e-3     # sin(0.25): 0.5 rad about z
