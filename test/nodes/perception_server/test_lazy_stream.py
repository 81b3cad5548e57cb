"""An idle perception server detects nothing: the detections stream runs a detection only
while somebody subscribes to it (a real node in-process; the detection thread is spied on)."""
from __future__ import annotations

import itertools
import time

import pytest
from sensor_msgs.msg import CameraInfo
from test_ros_perception_goal_flow import depth_msg, rgb_msg

from robot_tasks_interfaces.msg import DetectedObjectArray

pytestmark = pytest.mark.ros
_names = itertools.count()


@pytest.fixture
def server(ros_env):
    import rclpy
    from rclpy.context import Context
    from rclpy.parameter import Parameter

    from robot_tasks.nodes.perception_server.node import PerceptionServer

    context = Context()
    rclpy.init(context=context, domain_id=ros_env.domain_id)
    node = PerceptionServer(f"lazy_perception_{next(_names)}", context=context, parameter_overrides=[
        Parameter("stream_rate", value=1.0), Parameter("camera_pose_topic", value=""),
        Parameter("detections_topic", value=f"lazy_detections_{next(_names)}"),
        Parameter("camera_pose", value=[0.0, 0.0, 1.5, 1.0, 0.0, 0.0, 0.0])])
    submitted = []
    node.worker.try_submit = lambda job, snap: submitted.append(snap) or object()
    node.feed.set_info(CameraInfo(width=2, height=2, k=[1.0, 0.0, 1.0, 0.0, 1.0, 1.0, 0.0, 0.0, 1.0]))
    node.feed.add_rgb(rgb_msg(1000))
    node.feed.add_depth(depth_msg(1000))
    yield node, submitted, context
    node.close()
    node.destroy_node()
    context.try_shutdown()


def stream_listener(node, context):
    """A node of our own subscribed to the server's detections stream, matched (bounded wait)."""
    import rclpy
    from rclpy.executors import SingleThreadedExecutor

    listener = rclpy.create_node(f"lazy_listener_{next(_names)}", context=context)
    listener.create_subscription(DetectedObjectArray, node._stream_pub.topic_name, lambda _m: None, 10)
    executor = SingleThreadedExecutor(context=context)
    executor.add_node(listener)
    for _ in range(200):                              # until discovery matched the two (bounded)
        if node._stream_pub.get_subscription_count() > 0:
            break
        executor.spin_once(timeout_sec=0.02)
    return listener, executor


def test_no_subscriber_no_detection_then_one_subscriber_gets_them(server):
    node, submitted, context = server
    assert node.feed.snapshot() is not None, "a frame is ready"
    node._stream_tick()
    assert submitted == [] and node.stream_stats["skipped_unwatched"] == 1

    listener, executor = stream_listener(node, context)
    node._stream_tick()
    assert len(submitted) == 1, "with a subscriber, the new frame is detected"
    executor.shutdown()
    listener.destroy_node()


def test_images_subscribed_only_while_the_stream_is_watched(server):
    """No goal, no stream subscriber: no image subscription (the camera renders nothing);
    a stream subscriber makes the server subscribe; it lets go after the linger."""
    node, _submitted, context = server
    image_topic = node.resolve_topic_name(node.cfg.image_topic)
    assert not node.camera.active and node.count_subscribers(image_topic) == 0
    listener, executor = stream_listener(node, context)
    node.camera.check()
    assert node.camera.active and node.count_subscribers(image_topic) == 1
    executor.shutdown()
    listener.destroy_node()
    for _ in range(200):
        if node._stream_pub.get_subscription_count() == 0:
            break
        time.sleep(0.02)                              # the listener is gone: wait for the count to drop
    node.camera.lazy.linger_s = 0.0
    node.camera.check()
    assert not node.camera.active and node.count_subscribers(image_topic) == 0
