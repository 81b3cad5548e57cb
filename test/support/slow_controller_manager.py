"""Test node: a controller_manager that answers list_controllers too late.

Serves `<ns>/controller_manager/list_controllers` (controller_manager_msgs) and answers
each request only after `delay` seconds (parameter, default 2.0), with an empty list — a
manager that is there but does not answer within a client's deadline. Returning after the
delay keeps the process responsive to SIGINT between requests.

Run: python test/support/slow_controller_manager.py --ros-args -r __ns:=/slow -p delay:=2.0
"""
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # repo root, for robot_tasks

from robot_tasks.ros.dds import configure_loopback_dds  # noqa: E402
from robot_tasks.ros.node_main import run_node  # noqa: E402  (imports no ROS)

configure_loopback_dds()

from rclpy.node import Node  # noqa: E402

from controller_manager_msgs.srv import ListControllers  # noqa: E402


class SlowControllerManager(Node):
    def __init__(self):
        super().__init__("controller_manager")
        self.delay = float(self.declare_parameter("delay", 2.0).value)
        self.create_service(ListControllers, "controller_manager/list_controllers", self._on_list)

    def _on_list(self, _request, response):
        time.sleep(self.delay)
        return response


def main(args=None) -> int:
    return run_node(SlowControllerManager, args, configure_dds=False)  # DDS: set up above


if __name__ == "__main__":
    sys.exit(main(sys.argv))
