"""The sim renders its camera only while somebody subscribes (a real node and a real
PyBullet world in-process; the renders are counted)."""
from __future__ import annotations

import pytest

pytestmark = [pytest.mark.ros, pytest.mark.sim]


def test_camera_renders_only_for_subscribers(ros_env):
    import rclpy
    from rclpy.context import Context
    from rclpy.executors import SingleThreadedExecutor
    from sensor_msgs.msg import Image

    from robot_tasks.nodes.sim.scene_io import CameraIO
    from robot_tasks.sim import World

    context = Context()
    rclpy.init(context=context, domain_id=ros_env.domain_id)
    node = rclpy.create_node("lazy_camera_sim", namespace="/lazy_cam", context=context)
    listener = rclpy.create_node("lazy_camera_viewer", namespace="/lazy_cam", context=context)
    executor = SingleThreadedExecutor(context=context)
    executor.add_node(listener)
    try:
        with World(scene="franka_stacking", seed=0) as world:
            camera = CameraIO(node, world, 64, 48)
            renders = []
            capture = camera.camera.capture
            camera.camera.capture = lambda: renders.append(1) or capture()
            camera.publish(1.0)
            assert renders == [], "nobody subscribes: nothing rendered"
            frames = []
            listener.create_subscription(Image, "camera/image_raw", frames.append, 2)
            for _ in range(200):                      # until discovery matched them (bounded)
                if camera.watched():
                    break
                executor.spin_once(timeout_sec=0.02)
            camera.publish(2.0)
            assert renders == [1]
            for _ in range(100):
                if frames:
                    break
                executor.spin_once(timeout_sec=0.02)
            assert frames and frames[0].width == 64 and frames[0].height == 48
    finally:
        executor.shutdown()
        listener.destroy_node()
        node.destroy_node()
        context.try_shutdown()
