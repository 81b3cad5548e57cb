"""Test node: republishes every std_msgs/String from `in` on `out`, prefixed "echo: ".

Run: python test/support/echo_node.py [--ros-args -r __node:=name ...]
It publishes and subscribes, so it opens every kind of DDS endpoint a real
node opens (used by the loopback-socket test).
"""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # repo root, for robot_tasks

from robot_tasks.ros.dds import configure_loopback_dds  # noqa: E402
from robot_tasks.ros.node_main import run_node  # noqa: E402  (imports no ROS)

configure_loopback_dds()

from rclpy.node import Node  # noqa: E402
from std_msgs.msg import String  # noqa: E402


class Echo(Node):
    def __init__(self):
        super().__init__("echo")
        self._pub = self.create_publisher(String, "out", 10)
        self.create_subscription(String, "in", self._on_msg, 10)

    def _on_msg(self, msg: String) -> None:
        self._pub.publish(String(data=f"echo: {msg.data}"))


def main(args=None) -> int:
    return run_node(Echo, args, configure_dds=False)  # DDS: set up above


if __name__ == "__main__":
    sys.exit(main(sys.argv))
