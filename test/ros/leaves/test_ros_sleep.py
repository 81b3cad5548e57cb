"""RosSleep counts the node's clock (sim time under use_sim_time), not wall time."""
from __future__ import annotations

import time

import pytest

from robot_tasks.bt import BehaviorTreeFactory, NodeStatus
from robot_tasks.bt.errors import BehaviorTreeError
from robot_tasks.ros.leaves import register_ros_nodes


class FakeClock:
    def __init__(self):
        self.ns = 5_000_000_000

    def now(self):
        return self

    @property
    def nanoseconds(self) -> int:
        return self.ns


class FakeNode:
    def __init__(self):
        self.clock = FakeClock()

    def get_clock(self):
        return self.clock


def sleep_tree(node, msec="1000"):
    factory = BehaviorTreeFactory()
    register_ros_nodes(factory, node)
    return factory.create_tree_from_text(
        f'<root BTCPP_format="4"><BehaviorTree ID="T"><RosSleep msec="{msec}"/></BehaviorTree></root>')


def test_it_waits_for_the_node_clock_not_the_wall():
    node = FakeNode()
    tree = sleep_tree(node)
    assert tree.tick_once() is NodeStatus.RUNNING
    time.sleep(0.05)
    node.clock.ns += 999_000_000                 # 0.999 s of sim time, 50 ms of wall
    assert tree.tick_once() is NodeStatus.RUNNING
    node.clock.ns += 1_000_000
    assert tree.tick_once() is NodeStatus.SUCCESS


def test_zero_is_at_once_and_bad_input_names_the_node():
    assert sleep_tree(FakeNode(), "0").tick_once() is NodeStatus.SUCCESS
    with pytest.raises(BehaviorTreeError, match="msec must be >= 0"):
        sleep_tree(FakeNode(), "-5").tick_once()
    with pytest.raises(BehaviorTreeError, match="needs the ROS node"):
        sleep_tree(None).tick_once()
