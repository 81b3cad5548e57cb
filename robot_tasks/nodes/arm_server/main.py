"""Entry point of the arm_server process (console script `arm_server`)."""
from robot_tasks.ros.node_main import run_node


def main(args=None) -> int:
    from robot_tasks.nodes.arm_server.node import ArmServer

    return run_node(ArmServer, args, program="arm_server")
