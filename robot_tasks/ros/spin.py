"""Running a node process: loopback DDS, rclpy init, spin until SIGINT/SIGTERM, clean
shutdown -- with rclpy 9.1's shutdown race handled.

With rclpy's default signal handling, SIGINT/SIGTERM shut the context down from the
signal handler while the executor may be taking a message. rclpy 9.1.2 then sometimes
raises from that take (seen: RuntimeError "Unable to convert call argument '0' to Python
object" from Subscription.take_message) instead of ExternalShutdownException, and the
node exits with code 1 after a clean run. An error raised once the context is no longer
ok is that shutdown, not a failure of ours; any error while the context is ok is real.
"""
from __future__ import annotations

import sys

from robot_tasks.ros.dds import configure_loopback_dds


def spin_until_shutdown(executor, context=None) -> None:
    """`executor.spin()` until the context is shut down (or Ctrl-C)."""
    import rclpy
    from rclpy.executors import ExternalShutdownException

    try:
        executor.spin()
    except (KeyboardInterrupt, ExternalShutdownException):
        return
    except Exception:
        if rclpy.ok(context=context):
            raise


def run_node(make_node, args=None, setting_errors: tuple = (), error_prefix: str = "error",
             configure_dds: bool = True) -> int:
    """The whole main() of a node process: exit 0 after SIGINT/SIGTERM, 2 when `make_node`
    raises one of `setting_errors` (a bad parameter; the message is printed). Shuts down in
    order: executor, node (its `close()` first, if it has one: its own threads), context.
    `configure_dds=False` is for a caller that already set up loopback DDS its own way
    (a test node with another profile)."""
    if configure_dds:
        configure_loopback_dds()  # before rclpy.init(): keeps DDS on 127.0.0.1
    import rclpy
    from rclpy.executors import SingleThreadedExecutor

    rclpy.init(args=sys.argv if args is None else list(args))
    node = executor = None
    try:
        try:
            node = make_node()
        except setting_errors as exc:
            print(f"{error_prefix}: {exc}", file=sys.stderr)
            return 2
        executor = SingleThreadedExecutor()
        executor.add_node(node)
        spin_until_shutdown(executor)
    except KeyboardInterrupt:  # Ctrl-C while the node was being built
        pass
    finally:
        if executor is not None:
            executor.shutdown()
        if node is not None:
            if hasattr(node, "close"):
                node.close()
            node.destroy_node()
        rclpy.try_shutdown()
    return 0
