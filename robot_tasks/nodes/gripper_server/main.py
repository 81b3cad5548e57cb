"""Entry point of the gripper_server process (console script `gripper_server`)."""
from robot_tasks.ros.node_main import run_node


def main(args=None) -> int:
    from robot_tasks.nodes.gripper_server.node import GripperServer

    return run_node(GripperServer, args, program="gripper_server")
