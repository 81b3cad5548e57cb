"""Entry point of the perception_server process (console script `perception_server`).

    python -m robot_tasks.nodes.perception_server --ros-args -p stream_rate:=2.0
    python -m robot_tasks.nodes.perception_server --ros-args \
        -p camera_pose:="[0.95, 0.0, 1.55, 0.6855, 0.6855, -0.1734, -0.1734]"
"""
from robot_tasks.ros.node_main import run_node


def main(args=None) -> int:
    from robot_tasks.nodes.perception_server.node import PerceptionServer

    return run_node(PerceptionServer, args, program="perception_server")
