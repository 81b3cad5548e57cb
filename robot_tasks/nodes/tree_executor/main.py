"""Entry point of the tree_executor process (console script `tree_executor`).

Its main loop spins like every node's, and adds one thing on SIGINT/SIGTERM: the
running tree is halted while the context is still alive, so its leaves' cancel
requests go out, and the loop spins on until the servers answered them (at most
CANCEL_WAIT_S) and the halted goal's result is sent.
"""
from __future__ import annotations

import time

from robot_tasks.ros.node_main import run_node, spin_until_stopped

CANCEL_WAIT_S = 2.0  # how long a stopping executor waits for its cancel requests to be answered
MIN_FLUSH_S = 0.1    # and at least this long, for the halted goal's result to go out


def run_until_stopped(node, executor, stop) -> None:
    """Spin until SIGINT/SIGTERM, then halt the tree and let its cancels be answered."""
    from robot_tasks.ros.leaves.action_node import pending_cancels

    try:
        spin_until_stopped(node, executor, stop)
    finally:
        node.server.shutdown()  # halts a running tree: its leaves send cancel requests
        start = time.monotonic()
        while time.monotonic() - start < CANCEL_WAIT_S:
            if not pending_cancels(node) and time.monotonic() - start >= MIN_FLUSH_S:
                break
            executor.spin_once(timeout_sec=0.02)


def main(args: list[str] | None = None) -> int:
    from robot_tasks.nodes.tree_executor.node import TreeExecutorNode

    return run_node(TreeExecutorNode, args, program="tree_executor", main_loop=run_until_stopped)
