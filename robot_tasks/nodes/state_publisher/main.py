"""Entry point of the state_publisher process (console script `state_publisher`)."""
from robot_tasks.ros.node_main import run_node


def main(args=None) -> int:
    from robot_tasks.nodes.state_publisher.node import StatePublisher

    return run_node(StatePublisher, args, program="state_publisher")
