"""Run the perception_server in a process: loopback DDS, rclpy init, spin, clean shutdown.

Exit codes: 0 after SIGINT/SIGTERM, 2 for a bad parameter (the message names it).
"""
from __future__ import annotations

import sys

from robot_tasks.ros.dds import configure_loopback_dds
from robot_tasks.ros.spin import spin_until_shutdown


def main(args=None) -> int:
    configure_loopback_dds()              # before rclpy.init(): DDS stays on 127.0.0.1
    import rclpy
    from rclpy.executors import SingleThreadedExecutor

    from robot_tasks.ros.perception.parameters import PerceptionParamError
    from robot_tasks.ros.perception.server import PerceptionServer

    rclpy.init(args=sys.argv if args is None else args)
    node = None
    try:
        try:
            node = PerceptionServer()
        except PerceptionParamError as err:
            print(f"perception_server: {err}", file=sys.stderr)
            return 2
        executor = SingleThreadedExecutor()
        executor.add_node(node)
        spin_until_shutdown(executor)     # SIGINT/SIGTERM: rclpy shuts the context down
    except KeyboardInterrupt:             # Ctrl-C while the node was being built
        pass
    finally:
        # The executor (this thread) has stopped; now the node's own threads, then the node.
        if node is not None:
            node.close()
            node.destroy_node()
        rclpy.try_shutdown()
    return 0
