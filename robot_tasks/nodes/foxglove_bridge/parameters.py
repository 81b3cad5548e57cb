"""The foxglove_bridge's parameters, declared once with their defaults and checks.

| parameter         | default    | meaning                                                   |
|-------------------|------------|-----------------------------------------------------------|
| address           | 127.0.0.1  | where the WebSocket server listens (keep it on loopback)  |
| port              | 8765       | its TCP port (0 = any free port; the log says which)      |
| topics            | [] (all)   | topics to serve; empty = every topic of the graph         |
| discovery_period  | 1.0        | s between looks at the graph for new topics               |
"""
from __future__ import annotations

from dataclasses import dataclass

DEFAULT_ADDRESS, DEFAULT_PORT = "127.0.0.1", 8765


@dataclass(frozen=True)
class BridgeConfig:
    address: str
    port: int
    topics: list          # absolute names; empty = all
    discovery_period: float


def declare_bridge_parameters(node) -> BridgeConfig:
    from robot_tasks.ros.parameters import declare

    topics = declare(node, "topics", [], "topics to serve (empty = all)", kind=str)
    return BridgeConfig(
        address=declare(node, "address", DEFAULT_ADDRESS, "WebSocket listen address", allow_empty=False),
        port=declare(node, "port", DEFAULT_PORT, "WebSocket TCP port (0 = any free one)", minimum=0, maximum=65535),
        topics=["/" + t.strip("/") for t in topics],
        discovery_period=declare(node, "discovery_period", 1.0, "s between graph scans",
                                 minimum=0.05, maximum=60.0))
