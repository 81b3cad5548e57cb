"""arm_server node: MoveToPose / MoveToJoints for one arm (see robot_tasks/ros/arm/server.py).

    python -m robot_tasks.nodes.arm_server --ros-args -p robot:=panda
    python -m robot_tasks.nodes.arm_server --ros-args --params-file config/ur10_arm.yaml
"""
import sys

from robot_tasks.ros.arm.run import run_node


def main(args=None) -> int:
    from robot_tasks.ros.arm.server import ArmServer

    return run_node(ArmServer, args)


if __name__ == "__main__":
    sys.exit(main())
