"""A free port pair for a Groot2Publisher: the REP port p and the PUB port p + 1."""
from __future__ import annotations

import socket

from ..errors import BehaviorTreeError


def free_port_pair(host: str = "127.0.0.1", attempts: int = 50) -> int:
    """A port p such that p and p + 1 can be bound on `host` now (the OS picks p).

    For tests, benches and several executors on one machine; another program may still
    take the ports before they are bound (the publisher then raises Groot2Error)."""
    for _ in range(attempts):
        with socket.socket() as first:
            first.bind((host, 0))
            port = first.getsockname()[1]
            if port >= 65535:
                continue
            with socket.socket() as second:
                try:
                    second.bind((host, port + 1))
                except OSError:
                    continue
        return port
    raise BehaviorTreeError(f"no free port pair on {host} after {attempts} tries")
