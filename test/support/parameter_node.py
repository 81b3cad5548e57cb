"""Test node: one read-only and one run-time parameter, declared through robot_tasks' declare().

    rate   float (0, 1000], read-only: read once at start, as every node parameter is
    speed  float (0, 1], writable: each accepted value is logged ("speed now 0.25")

Run: python test/support/parameter_node.py [--ros-args -p rate:=240 ...]
"""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # repo root, for robot_tasks

from robot_tasks.ros.dds import configure_loopback_dds  # noqa: E402
from robot_tasks.ros.node_main import run_node  # noqa: E402  (imports no ROS)

configure_loopback_dds()

from rclpy.node import Node  # noqa: E402

from robot_tasks.ros.parameters import declare  # noqa: E402


class ParameterNode(Node):
    def __init__(self):
        super().__init__("parameter_node")
        self.rate = declare(self, "rate", 100.0, "Hz", minimum=0.0, maximum=1000.0, open_minimum=True)
        self.get_logger().info(f"rate {self.rate!r}")
        self.speed = declare(self, "speed", 0.5, "fraction", minimum=0.0, maximum=1.0,
                             open_minimum=True, on_set=self.set_speed)

    def set_speed(self, value: float) -> None:
        self.speed = value
        self.get_logger().info(f"speed now {value!r}")


def main(args=None) -> int:
    return run_node(ParameterNode, args, configure_dds=False)  # DDS: set up above


if __name__ == "__main__":
    sys.exit(main(sys.argv))
