"""Run one server node in a process: loopback DDS, rclpy init, spin, clean shutdown.

Shared by the arm and gripper server entry points (robot_tasks/nodes/*), which stay
one-liners. A settings error (bad parameter) is printed and gives exit code 2.
"""
from __future__ import annotations

import sys

from robot_tasks.ros.dds import configure_loopback_dds
from robot_tasks.ros.spin import spin_until_shutdown


def run_node(make_node, args=None) -> int:
    configure_loopback_dds()  # before rclpy.init(): keeps DDS on 127.0.0.1
    import rclpy
    from rclpy.executors import SingleThreadedExecutor

    from robot_tasks.ros.arm.settings import SettingsError

    rclpy.init(args=sys.argv if args is None else args)
    node = None
    try:
        try:
            node = make_node()
        except SettingsError as exc:
            print(f"error: {exc}", file=sys.stderr)
            return 2
        executor = SingleThreadedExecutor()
        executor.add_node(node)
        spin_until_shutdown(executor)
    except KeyboardInterrupt:             # Ctrl-C while the node was being built
        pass
    finally:
        if node is not None:
            node.destroy_node()
        rclpy.try_shutdown()
    return 0
