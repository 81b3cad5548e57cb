"""Which ROS_DOMAIN_ID a test, bench or demo may use: one that nobody on this machine uses.

Two ROS processes meet only when they share a domain id (ROS_DOMAIN_ID, 0..232). Runs that
must not meet -- two test sessions at once, a demo next to a bringup -- each need a domain of
their own. DDS gives every domain its own block of UDP ports (RTPS: 250 ports from
``7400 + 250 * domain``, :func:`domain_ports`), and every participant of a domain binds its
discovery port in that block. So the kernel's list of bound UDP ports
(``/proc/net/udp``, :func:`bound_udp_ports`) tells which domains are in use
(:func:`domains_in_use`), whoever runs them, and :func:`pick_free_domain_id` picks a free
one at random. A session holds its domain between tests, while none of its nodes runs, by
binding one port of the block itself (:func:`reserve_domain`).

No ROS import; Linux only (/proc).
"""
from __future__ import annotations

import os
import random
from pathlib import Path

from robot_tasks.ros.dds import DOMAIN_GAIN, PORT_BASE, LoopbackConfigError

# Domain ids whose UDP ports are valid on Linux without clashing with the
# ephemeral range are 0..101 (ROS 2 docs, "The ROS_DOMAIN_ID"); 0 is what
# every unconfigured ROS process uses, so tests stay away from it.
TEST_DOMAIN_RANGE = (1, 101)


def domain_ports(domain_id: int) -> range:
    """Every UDP port that DDS participants of `domain_id` can bind (the domain's port block)."""
    start = PORT_BASE + DOMAIN_GAIN * domain_id
    return range(start, start + DOMAIN_GAIN)


def bound_udp_ports(proc_net: str | os.PathLike = "/proc/net") -> set[int]:
    """Local ports of every UDP socket (IPv4 and IPv6) bound in this network namespace.

    Read from ``/proc/net/udp`` and ``udp6``, which list the sockets of all processes
    (of every user) in the namespace, so other sessions' nodes are seen too.
    """
    ports: set[int] = set()
    for name in ("udp", "udp6"):
        try:
            rows = (Path(proc_net) / name).read_text().splitlines()[1:]
        except FileNotFoundError:  # no IPv6 in this kernel/namespace
            continue
        for row in rows:
            local = row.split()[1]  # "0100007F:1CE8"
            ports.add(int(local.rsplit(":", 1)[1], 16))
    return ports


def domains_in_use(bound_ports: set[int] | None = None) -> set[int]:
    """Domain ids (0..232) that have at least one UDP port bound on this machine."""
    ports = bound_udp_ports() if bound_ports is None else bound_ports
    top = PORT_BASE + DOMAIN_GAIN * 233
    return {(p - PORT_BASE) // DOMAIN_GAIN for p in ports if PORT_BASE <= p < top}


def reserve_domain(domain_id: int):
    """Hold `domain_id` for this process: bind one UDP port of its block on 127.0.0.1 (the
    block's last port, which no participant of a few dozen processes uses), so that
    `pick_free_domain_id` elsewhere sees the domain as taken even while none of our nodes
    runs (between two tests). Close the returned socket to give the domain back; None if
    the port is already bound (then the domain is visibly in use anyway)."""
    import socket

    port = domain_ports(domain_id).stop - 1
    holder = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    try:
        holder.bind(("127.0.0.1", port))
    except OSError:
        holder.close()
        return None
    return holder


def pick_free_domain_id(rng: random.Random | None = None,
                        bound_ports: set[int] | None = None) -> int:
    """A random ROS_DOMAIN_ID in 1..101 that no process on this machine is using.

    A domain counts as used when any UDP port of its block (:func:`domain_ports`)
    is bound, which every DDS participant of it does (its discovery port). Random,
    not the lowest free one, so two sessions that pick at the same instant (before
    either has bound a port) still rarely collide. 0 is avoided because every ROS
    process without configuration uses it.

    Args:
        rng: random source (tests pass a seeded one).
        bound_ports: the bound UDP ports to judge by; default: read /proc/net now.

    Raises LoopbackConfigError when every domain in the range is in use.
    """
    rng = rng or random.SystemRandom()
    low, high = TEST_DOMAIN_RANGE
    used = domains_in_use(bound_ports)
    free = [d for d in range(low, high + 1) if d not in used]
    if not free:
        raise LoopbackConfigError(
            f"every ROS_DOMAIN_ID in {low}..{high} has UDP ports bound on this machine "
            f"(see /proc/net/udp); stop leftover ROS processes or pass a domain id")
    return rng.choice(free)
