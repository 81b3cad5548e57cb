"""Entry point of the peer_watch process (started by `robot-tasks bringup` when it has peers)."""
from robot_tasks.ros.node_main import run_node


def main(args=None) -> int:
    from robot_tasks.nodes.peer_watch.node import PeerWatch

    return run_node(PeerWatch, args, program="peer_watch")
