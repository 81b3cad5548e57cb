"""Pulling the cable between the two test hosts, and plugging it back in.

``ip -n <ns> link set veth0 down`` on one end of the veth (robot_tasks.testing.netns) is a
pulled cable: that end stops sending and receiving, the other end loses its carrier, and
nothing crosses until the link is up again -- the Wi-Fi drop or unplugged switch of a real
cell. Two things a real machine does by itself must be redone here when the link returns:

- the kernel deletes every route through a device that goes down; the subnet's route comes
  back with the device (it belongs to the address), the multicast route the harness added
  does not. Without it DDS cannot multicast discovery (ENETUNREACH): participants that
  already know each other talk on by unicast, but a process started later -- a restarted
  node -- is never found. :func:`plug` adds it again, then checks the routes as before.

    with TwoHosts() as hosts:
        unplug(hosts)            # the robot's end of the cable goes down
        ...
        plug(hosts)
"""
from __future__ import annotations

from contextlib import contextmanager

from robot_tasks.testing.isolation import check_routes
from robot_tasks.testing.netns import MULTICAST_ROUTE, VETH, TwoHosts, ip


def unplug(hosts: TwoHosts, host: str = "robot") -> None:
    """Take `host`'s end of the cable down: nothing crosses in either direction."""
    ip("-n", hosts.ns(host), "link", "set", VETH, "down")


def plug(hosts: TwoHosts, host: str = "robot") -> None:
    """Bring `host`'s end up again, restore the multicast routes, check nothing else opened."""
    ip("-n", hosts.ns(host), "link", "set", VETH, "up")
    for ns in hosts.names.values():
        # `replace`: the task end kept its route (it only lost carrier), the robot end did not
        ip("-n", ns, "route", "replace", MULTICAST_ROUTE, "dev", VETH)
    check_routes(hosts.names.values())


@contextmanager
def unplugged(hosts: TwoHosts, host: str = "robot"):
    """The cable is out inside the block, back in after it (also after an error)."""
    unplug(hosts, host)
    try:
        yield
    finally:
        plug(hosts, host)
