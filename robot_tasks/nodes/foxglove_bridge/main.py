"""Entry point of the foxglove_bridge process (console script `foxglove_bridge`)."""
from robot_tasks.ros.node_main import run_node


def main(args=None) -> int:
    from robot_tasks.nodes.foxglove_bridge.node import FoxgloveBridge

    return run_node(FoxgloveBridge, args, program="foxglove_bridge")
