"""A free port pair for a Groot2Publisher: the REP port p and the PUB port p + 1.

The pair is chosen now and bound later, often by another process (a test picks it and
hands it to a tree_executor through its YAML). In between, the ports must stay free. A
port the OS hands out itself (`bind(0)`) comes from the ephemeral range
(`/proc/sys/net/ipv4/ip_local_port_range`, 32768-60999 by default), the same range every
outgoing TCP connection on the machine takes its local port from: a browser, a monitor,
or a ZeroMQ client already retrying towards the pair (a TCP connect to a port of the
ephemeral range on the same host can even connect to itself). Any of them can hold p or
p + 1 at the moment the publisher binds. So the pair is drawn at random from below the
ephemeral range, where the kernel never assigns a port on its own; only an explicit bind
can take it.
"""
from __future__ import annotations

import random
import socket
from pathlib import Path

from ..errors import BehaviorTreeError

LOWEST_PORT = 10000                 # clear of well-known services and of common dev-server ports
DEFAULT_EPHEMERAL = (32768, 60999)  # Linux's default ip_local_port_range


def ephemeral_port_range(path: str | Path = "/proc/sys/net/ipv4/ip_local_port_range") -> tuple[int, int]:
    """(first, last) of the ports the kernel assigns to outgoing connections and bind(0)."""
    try:
        first, last = (int(word) for word in Path(path).read_text().split())
    except (OSError, ValueError):
        return DEFAULT_EPHEMERAL
    return first, last


def _bindable(host: str, port: int) -> bool:
    with socket.socket() as sock:
        try:
            sock.bind((host, port))
        except OSError:
            return False
    return True


def free_port_pair(host: str = "127.0.0.1", attempts: int = 200) -> int:
    """A port p below the ephemeral range such that p and p + 1 can be bound on `host` now.

    For tests, benches and several executors on one machine. Another program's explicit
    bind may still take the ports before the publisher binds them (it then raises
    Groot2Error), but no outgoing connection can."""
    first_ephemeral, _ = ephemeral_port_range()
    top = first_ephemeral - 2           # p + 1 stays below the range
    if top < LOWEST_PORT:
        raise BehaviorTreeError(f"no room for a port pair below the ephemeral range "
                                f"(it starts at {first_ephemeral})")
    chooser = random.Random()           # its own generator: a seeded global `random` must not repeat pairs
    for _ in range(attempts):
        port = chooser.randint(LOWEST_PORT, top)
        if _bindable(host, port) and _bindable(host, port + 1):
            return port
    raise BehaviorTreeError(f"no free port pair on {host} below {first_ephemeral} after {attempts} tries")
