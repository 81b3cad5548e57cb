"""Run the perception_server in a process.

Exit codes: 0 after SIGINT/SIGTERM, 2 for a bad parameter (the message names it).
"""
from __future__ import annotations

from robot_tasks.ros.spin import run_node


def main(args=None) -> int:
    from robot_tasks.ros.perception.parameters import PerceptionParamError
    from robot_tasks.ros.perception.server import PerceptionServer

    return run_node(PerceptionServer, args, setting_errors=(PerceptionParamError,),
                    error_prefix="perception_server")
