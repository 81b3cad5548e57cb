"""What `ros2 node list` does, with nothing from robot_tasks: print the node names this
process sees within --wait seconds, one per line, as soon as NAME (if given) is among them.

Run: python test/support/node_list.py [NAME] [--wait S]
The DDS settings come from the environment only, as in a user's own terminal, so whoever
starts this must have checked that environment first (test/commands/test_env.py does).
"""
import argparse
import sys
import time

import rclpy


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("name", nargs="?")
    parser.add_argument("--wait", type=float, default=10.0)
    args = parser.parse_args()
    rclpy.init()
    node = rclpy.create_node("node_list")
    try:
        deadline = time.monotonic() + args.wait
        names = []
        while time.monotonic() < deadline:
            rclpy.spin_once(node, timeout_sec=0.1)
            names = node.get_node_names()
            if args.name and args.name in names:
                break
        print("\n".join(sorted(names)))
        return 0 if not args.name or args.name in names else 1
    finally:
        node.destroy_node()
        rclpy.try_shutdown()


if __name__ == "__main__":
    sys.exit(main())
