"""Entry point of the compliance_server process (console script `compliance_server`)."""
from robot_tasks.ros.node_main import run_node


def main(args=None) -> int:
    from robot_tasks.nodes.compliance_server.node import ComplianceServer

    return run_node(ComplianceServer, args, program="compliance_server")
