"""gripper_server node: GripperCommand for a parallel gripper or a suction cup
(see robot_tasks/ros/gripper/server.py).

    python -m robot_tasks.nodes.gripper_server --ros-args -r __ns:=/panda -p robot:=panda
"""
import sys

from robot_tasks.ros.arm.run import run_node


def main(args=None) -> int:
    from robot_tasks.ros.gripper.server import GripperServer

    return run_node(GripperServer, args)


if __name__ == "__main__":
    sys.exit(main())
