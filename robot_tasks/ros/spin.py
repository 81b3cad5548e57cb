"""Spinning a node until SIGINT/SIGTERM, with rclpy 9.1's shutdown race handled.

With rclpy's default signal handling, SIGINT/SIGTERM shut the context down from the
signal handler while the executor may be taking a message. rclpy 9.1.2 then sometimes
raises from that take (seen: RuntimeError "Unable to convert call argument '0' to Python
object" from Subscription.take_message) instead of ExternalShutdownException, and the
node exits with code 1 after a clean run. An error raised once the context is no longer
ok is that shutdown, not a failure of ours; any error while the context is ok is real.
"""
from __future__ import annotations


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
