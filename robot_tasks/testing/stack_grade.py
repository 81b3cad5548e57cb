"""Grade a stacking run from another computer: read the sim's `objects` once, judge the stack.

    python -m robot_tasks.testing.stack_grade --timeout 20

The demo grades from the sim's ground truth inside its own process; when the sim runs on
the robot's computer and the tree on the task's (robot_tasks.testing.split_stacking), this
small client on the task host does the same from the one topic that crosses the link:
the sim's `objects` (ObjectStateArray), graded by robot_tasks.tasks.stacking.grade.judge_stack, the
demo's own rule. Ground truth grades the run; it never steers it.

Prints one JSON line {"success": ..., "cubes": [...]} and exits 0 when every cube is in
place, 1 when not, 2 when no `objects` message came within --timeout. DDS as every CLI:
loopback unless ROBOT_TASKS_DDS=system.
"""
from __future__ import annotations

import argparse
import json
import sys
import threading

from robot_tasks.tasks.stacking.grade import judge_stack


def read_positions(timeout: float) -> dict | None:
    """{object name: (x, y, z)} from the first `objects` message, or None after `timeout` s."""
    from rclpy.qos import QoSProfile, ReliabilityPolicy

    from robot_tasks.ros.client import RosClient
    from robot_tasks_interfaces.msg import ObjectStateArray

    got: dict = {}
    arrived = threading.Event()

    def on_objects(msg) -> None:
        if not arrived.is_set():
            got.update({o.name: (o.pose.position.x, o.pose.position.y, o.pose.position.z) for o in msg.objects})
            arrived.set()

    with RosClient("stack_grade") as ros:
        ros.node.create_subscription(ObjectStateArray, "objects", on_objects,
                                     QoSProfile(depth=10, reliability=ReliabilityPolicy.RELIABLE))
        ros.wait_for(arrived.is_set, timeout)
    return got if arrived.is_set() else None


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--timeout", type=float, default=20.0, help="s to wait for the sim's objects topic")
    args = parser.parse_args(argv)
    positions = read_positions(args.timeout)
    if positions is None:
        print(json.dumps({"success": False, "error": f"no `objects` message within {args.timeout:g} s"}))
        return 2
    cubes = judge_stack(positions)
    success = all(c["ok"] for c in cubes)
    print(json.dumps({"success": success, "cubes": cubes}), flush=True)
    return 0 if success else 1


if __name__ == "__main__":
    sys.exit(main())
