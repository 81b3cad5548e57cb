"""Streams a server holds only while it works: the linger logic (a fake clock), and live,
a node on sim time that lets /clock go when idle and does not trust its stale clock after."""
from __future__ import annotations

import threading
import time

import pytest

from robot_tasks.ros.lazy_subscriptions import LazySubscriptions, ServerStreams


class FakeClock:
    def __init__(self):
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def make(linger_s: float = 3.0):
    clock, opened, closed = FakeClock(), [], []

    def open_():
        opened.append(len(opened))
        return lambda: closed.append(opened[-1])

    return LazySubscriptions(open_, linger_s, clock), clock, opened, closed


def test_starts_closed_and_opens_once_while_held():
    lazy, _clock, opened, _ = make()
    assert not lazy.active and opened == []
    assert lazy.hold() is True and lazy.hold() is False
    assert lazy.active and opened == [0]


def test_closed_only_after_the_linger_without_need():
    lazy, clock, _opened, closed = make(linger_s=3.0)
    lazy.update(True)
    clock.now = 2.9
    lazy.update(False)
    assert lazy.active and closed == [], "a short gap between goals keeps the streams"
    clock.now = 3.1
    lazy.update(False)
    assert not lazy.active and closed == [0]


def test_need_renews_the_linger_and_reopens_after_closing():
    lazy, clock, opened, closed = make(linger_s=1.0)
    lazy.hold()
    clock.now = 0.8
    lazy.update(True)
    clock.now = 1.5
    lazy.update(False)
    assert lazy.active, "the need at 0.8 s holds the streams until 1.8 s"
    clock.now = 2.0
    lazy.update(False)
    assert not lazy.active
    lazy.hold()
    assert lazy.active and opened == [0, 1] and closed == [0] and lazy.open_count == 2


def test_rclpy_still_has_the_private_clock_members_we_use():
    """pause_clock/resume_clock reach into rclpy's TimeSource; an upgrade that renames
    these must fail here, not silently keep /clock subscribed or never resubscribe it."""
    from rclpy.time_source import TimeSource

    source = TimeSource()
    assert hasattr(source, "_clock_sub") and callable(getattr(source, "clock_callback", None))


@pytest.mark.ros
def test_an_idle_node_lets_clock_go_and_waits_for_a_fresh_clock_after(ros_node):
    from rclpy.node import Node
    from rclpy.parameter import Parameter
    from rclpy.qos import QoSProfile, ReliabilityPolicy
    from rosgraph_msgs.msg import Clock

    publisher = ros_node.node.create_publisher(Clock, "/clock", QoSProfile(depth=1, reliability=ReliabilityPolicy.BEST_EFFORT))
    sim_ns = [1_000_000_000]
    running = threading.Event()
    running.set()

    def publish_clock():                      # a sim at real time, 100 Hz
        while running.is_set():
            if sim_ns[0] is not None:
                sim_ns[0] += 10_000_000
                msg = Clock()
                msg.clock.sec, msg.clock.nanosec = divmod(sim_ns[0], 1_000_000_000)
                publisher.publish(msg)
            time.sleep(0.01)

    thread = threading.Thread(target=publish_clock, daemon=True)
    thread.start()
    server = Node("lazy_clock_server", context=ros_node.context,
                  parameter_overrides=[Parameter("use_sim_time", value=True)])
    busy = [True]
    try:
        streams = ServerStreams(server, lambda: [], needed=lambda: busy[0], linger_s=0.3, check_period_s=0.05)
        ros_node.executor.add_node(server)
        now_ns = lambda: server.get_clock().now().nanoseconds  # noqa: E731
        ros_node.wait_for(lambda: now_ns() > 1_000_000_000, "the sim clock to reach the node")
        assert streams.active and streams.clock_fresh()
        busy[0] = False
        ros_node.wait_for(lambda: not streams.active, "the idle node to let /clock go", timeout=5.0)
        assert server._time_source._clock_sub is None
        held = now_ns()
        time.sleep(0.3)
        assert now_ns() == held, "without /clock the node's clock holds its last value"
        sim_ns[0] = None                      # the sim pauses: no /clock at all for a moment
        streams.hold()
        assert streams.active and not streams.clock_fresh(), "a stale clock must not count as now"
        time.sleep(0.2)
        assert not streams.clock_fresh()
        sim_ns[0] = 2_000_000                 # the sim restarted: its clock begins again near 0
        ros_node.wait_for(streams.clock_fresh, "a fresh /clock after resubscribing", timeout=5.0)
        assert now_ns() < held, "fresh means a new /clock message, even one behind the old value"
    finally:
        running.clear()
        thread.join(2.0)
        ros_node.executor.remove_node(server)
        server.destroy_node()
