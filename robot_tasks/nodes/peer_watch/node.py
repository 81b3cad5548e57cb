"""The peer_watch node: looks at the ROS graph every `period` and logs the peers' comings and goings.

| parameter        | default | meaning                                                        |
|------------------|---------|----------------------------------------------------------------|
| peers            | []      | fully qualified names of the nodes expected elsewhere (`/sim`)  |
| period           | 1.0     | s between looks at the graph                                   |
| missing_after    | 10.0    | s after the start to warn about a peer never seen              |

A lost peer is a WARN line ("peer /sim LOST: ..."), its return an INFO line; see peers.py for
when the graph shows either.
"""
from __future__ import annotations

import time

from rclpy.clock import Clock, ClockType
from rclpy.node import Node

from robot_tasks.nodes.peer_watch.peers import PeerBook
from robot_tasks.ros.parameters import ParameterError, declare


class PeerWatch(Node):
    def __init__(self):
        super().__init__("peer_watch")
        peers = declare(self, "peers", [], "fully qualified names of the nodes expected on other computers",
                        kind=str)
        peers = [p if p.startswith("/") else "/" + p for p in peers if p]
        if not peers:
            raise ParameterError("peers", "names no node to watch", node=self.get_name())
        period = declare(self, "period", 1.0, "s between looks at the graph", minimum=0.05, maximum=60.0)
        missing_after = declare(self, "missing_after", 10.0, "s before a peer never seen is reported",
                                minimum=0.0, maximum=3600.0)
        self.book = PeerBook(peers, time.monotonic(), missing_after)
        self.get_logger().info(f"watching for peers {', '.join(peers)} in the ROS graph every {period:g} s")
        # a steady clock: with use_sim_time the node's own clock is /clock, which stops with the
        # sim -- exactly when a lost robot computer must still be reported
        self.create_timer(period, self._look, clock=Clock(clock_type=ClockType.STEADY_TIME))

    def _look(self) -> None:
        names = [f"{ns.rstrip('/')}/{name}" for name, ns in self.get_node_names_and_namespaces()]
        for event in self.book.update(names, time.monotonic()):
            if event.warning:      # two call sites: rclpy fixes a call site's severity
                self.get_logger().warning(event.text)
            else:
                self.get_logger().info(event.text)
