"""Helpers for tests of a tree file under trees/: a factory with the task and ROS leaves
registered, and a stand-in ROS node that records what the leaves subscribe to."""
from __future__ import annotations

from robot_tasks.bt import BehaviorTreeFactory
from robot_tasks.ros.leaves import register_ros_nodes
from robot_tasks.tasks import register_nodes

PORT_TAGS = {"input_port": "INPUT", "output_port": "OUTPUT", "inout_port": "INOUT"}


class FakeRosNode:
    """Records what the leaves subscribe to when the tree is created; nothing else is used."""

    def __init__(self):
        self.subscriptions = []

    def create_subscription(self, msg_type, topic, callback, qos):
        self.subscriptions.append((topic, msg_type.__name__, qos.durability.name))


def full_factory(ros_node=None):
    factory = BehaviorTreeFactory()
    register_nodes(factory, ros_node)
    register_ros_nodes(factory, ros_node if ros_node is not None else FakeRosNode())
    return factory
