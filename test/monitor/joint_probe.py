"""A small ROS child that tells a test whether a robot arm is moving.

A monitor test pauses a real tree and must see the arm stand still, then move again after
the resume click. The arm's truth is its `joint_states` topic; this script joins the
demo's DDS domain (on loopback: `robot_tasks.ros.dds`), subscribes to the topic, and prints
one JSON line about ten times a second: `[monotonic s, [positions of the named joints]]`
(no joint named: every joint of the message, in its order).
CLOCK_MONOTONIC is the same clock in every process of the machine, so the test can line
these lines up with what it did and when.

    python joint_probe.py DOMAIN_ID LOG_DIR TOPIC SECONDS [JOINT ...]
"""
from __future__ import annotations

import json
import sys
import time

from robot_tasks.ros.dds import configure_loopback_dds


def main(argv: list[str]) -> int:
    if len(argv) < 4:
        print(__doc__, file=sys.stderr)
        return 2
    domain, log_dir, topic, seconds, joints = int(argv[0]), argv[1], argv[2], float(argv[3]), argv[4:]
    # before rclpy: the network rule and the demo's domain; ROS logs in the test's folder
    configure_loopback_dds(domain, log_dir)
    import rclpy
    from rclpy.executors import ExternalShutdownException
    from sensor_msgs.msg import JointState

    rclpy.init()
    node = rclpy.create_node("monitor_test_joint_probe")
    last = [0.0]

    def on_message(msg) -> None:
        now = time.monotonic()
        if now - last[0] < 0.1:
            return
        by_name = dict(zip(msg.name, msg.position))
        if all(name in by_name for name in joints):
            last[0] = now
            positions = [by_name[name] for name in joints] if joints else list(msg.position)
            print(json.dumps([now, positions]), flush=True)

    node.create_subscription(JointState, topic, on_message, 10)
    end = time.monotonic() + seconds   # bounded: the probe never outlives its test
    try:
        while rclpy.ok() and time.monotonic() < end:
            rclpy.spin_once(node, timeout_sec=0.1)
    except (KeyboardInterrupt, ExternalShutdownException):
        pass   # the test stops us with SIGTERM when it is done: that is the normal end
    finally:
        node.destroy_node()
        rclpy.try_shutdown()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
