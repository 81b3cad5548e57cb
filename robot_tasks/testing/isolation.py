"""Proof that the two test hosts (robot_tasks.testing.netns) talked only to each other.

Two checks, for two different ways a packet could escape:

:func:`check_routes` -- *could* a packet leave? Reads each namespace's interfaces and routes
(``ip -j -n <ns> link`` / ``route show table all``, IPv4 and IPv6) and fails unless the only
interfaces are ``lo`` and the veth, and every route is one of: the veth's own subnet, the
namespace's own local/broadcast addresses, or multicast (224.0.0.0/4) on the veth. There is
no default route and no interface towards the real machine, so the kernel has nowhere else to
send anything. (The multicast route is what a real machine gets from its default route: without
it the kernel refuses to send DDS discovery to 239.255.0.1 -- ENETUNREACH -- so the namespaces
carry it explicitly, on the veth only.) This is the strong check: it holds for every packet.

:class:`TrafficWatch` -- *did* DDS traffic show up on the real machine's interfaces? While it
runs, a raw packet socket (AF_PACKET, root only) on every non-loopback interface of the root
namespace counts the IPv4/IPv6 UDP packets whose source or destination port lies in the
domain's RTPS port block (7400 + 250*domain ... +249, robot_tasks.ros.domains.domain_ports), and
every packet from or to the test subnet. Both counts must stay 0. It also keeps the kernel's
per-interface counters (/proc/net/dev) from before and after, for the report.

What the watch cannot prove, said plainly:
- it sees only the root namespace's interfaces, during its own window, on this machine; a
  packet sent in another namespace with its own uplink (a container's) is not seen -- that
  is what the route check rules out for our two;
- the /proc/net/dev counters count every packet of every program (this machine's other
  work, an SSH session), so a rising eth0 counter proves nothing and a flat one is not
  expected; only the port/address match says "DDS of this test";
- another program's DDS on the same domain's ports would count too (and fail the test):
  a false alarm is possible, a silent leak through these interfaces is not;
- a packet the kernel drops before the packet socket sees it would be missed, but such a
  packet has also not left the machine.
"""
from __future__ import annotations

import ipaddress
import json
import select
import socket
import struct
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

from robot_tasks.ros.domains import domain_ports
from robot_tasks.testing.netns import MULTICAST_ROUTE, SUBNET, VETH, ip

MULTICAST = ipaddress.ip_network(MULTICAST_ROUTE)
ETH_P_ALL = 0x0003
ETH_P_IP, ETH_P_IPV6, ETH_P_8021Q = 0x0800, 0x86DD, 0x8100
UDP = 17


class IsolationError(AssertionError):
    """A namespace could reach beyond the veth, or DDS traffic reached the host's interfaces."""


# ---- could a packet leave? --------------------------------------------------------------
def route_problems(ns: str, subnet=SUBNET, veth: str = VETH) -> list[str]:
    """Every interface and route of namespace `ns` that is not the veth's subnet (+ lo)."""
    problems = []
    links = json.loads(ip("-j", "-n", ns, "link") or "[]")
    extra = sorted({link["ifname"] for link in links} - {"lo", veth})
    if extra:
        problems.append(f"{ns}: interfaces besides lo and {veth}: {extra}")
    for family in ("-4", "-6"):
        for route in json.loads(ip("-j", "-n", ns, family, "route", "show", "table", "all") or "[]"):
            if not _route_allowed(route, subnet, veth):
                problems.append(f"{ns}: route {family} {json.dumps(route, sort_keys=True)}")
    return problems


def _route_allowed(route: dict, subnet, veth: str) -> bool:
    kind, dev, dst = route.get("type", "unicast"), route.get("dev"), route.get("dst", "default")
    if route.get("gateway") or dst == "default" or "nexthops" in route:
        return False                      # a way to somewhere else
    if dev == "lo":
        return kind in ("local", "broadcast") or dst.startswith("127.")
    if dev != veth:
        return False
    network = ipaddress.ip_network(dst, strict=False)
    if kind in ("local", "broadcast"):    # the namespace's own address on the veth
        return network.version == 4 and network.subnet_of(subnet)
    return network.version == 4 and (network.subnet_of(subnet) or network.subnet_of(MULTICAST))


def check_routes(namespaces, subnet=SUBNET, veth: str = VETH) -> None:
    """IsolationError listing every way out of the given namespaces (none: returns)."""
    problems = [p for ns in namespaces for p in route_problems(ns, subnet, veth)]
    if problems:
        raise IsolationError("a test namespace can reach beyond its veth:\n  " + "\n  ".join(problems))


# ---- did DDS traffic reach the host's interfaces? -------------------------------------
def host_interfaces(proc_net_dev: str = "/proc/net/dev") -> dict[str, tuple[int, int]]:
    """This namespace's interfaces except lo: name -> (rx packets, tx packets)."""
    counters = {}
    for line in Path(proc_net_dev).read_text().splitlines()[2:]:
        name, _, data = line.partition(":")
        fields = data.split()
        if name.strip() != "lo" and len(fields) >= 10:
            counters[name.strip()] = (int(fields[1]), int(fields[9]))
    return counters


def classify(frame: bytes, ports: range, subnet=SUBNET) -> tuple[bool, bool]:
    """(a UDP packet with a port in `ports`, a packet from/to `subnet`) for one Ethernet frame."""
    if len(frame) < 14:
        return False, False
    kind, offset = struct.unpack_from("!H", frame, 12)[0], 14
    if kind == ETH_P_8021Q and len(frame) >= 18:
        kind, offset = struct.unpack_from("!H", frame, 16)[0], 18
    if kind == ETH_P_IP and len(frame) >= offset + 20:
        header = (frame[offset] & 0x0F) * 4
        proto = frame[offset + 9]
        src, dst = (ipaddress.ip_address(frame[offset + 12:offset + 16]),
                    ipaddress.ip_address(frame[offset + 16:offset + 20]))
        udp = offset + header
    elif kind == ETH_P_IPV6 and len(frame) >= offset + 40:
        proto = frame[offset + 6]            # extension headers are not followed: DDS sends none
        src, dst = (ipaddress.ip_address(frame[offset + 8:offset + 24]),
                    ipaddress.ip_address(frame[offset + 24:offset + 40]))
        udp = offset + 40
    else:
        return False, False
    ours = src in subnet or dst in subnet
    dds = False
    if proto == UDP and len(frame) >= udp + 4:
        sport, dport = struct.unpack_from("!HH", frame, udp)
        dds = sport in ports or dport in ports
    return dds, ours


@dataclass
class TrafficReport:
    interfaces: list[str]
    dds_packets: int = 0          # UDP, a port of the domain's block
    subnet_packets: int = 0       # from or to the test subnet
    frames_seen: int = 0
    counters_before: dict = field(default_factory=dict)
    counters_after: dict = field(default_factory=dict)
    seconds: float = 0.0

    def describe(self) -> str:
        deltas = {n: tuple(a - b for a, b in zip(self.counters_after.get(n, c), c))
                  for n, c in self.counters_before.items()}
        return (f"{self.seconds:.0f} s on {', '.join(self.interfaces) or 'no interface'}: {self.frames_seen} frames, "
                f"{self.dds_packets} with this domain's DDS ports, {self.subnet_packets} from/to {SUBNET}; "
                f"/proc/net/dev (rx, tx) packet deltas, all programs: {deltas}")


class TrafficWatch:
    """Count DDS/test-subnet packets on the root namespace's non-loopback interfaces while
    the `with` block runs (see the module docstring); `.report` afterwards, `.check()`."""

    def __init__(self, domain_id: int, subnet=SUBNET, interfaces: list[str] | None = None):
        """`interfaces`: default every non-loopback one (a test of the watch itself passes lo)."""
        self.ports = domain_ports(domain_id)
        self.subnet = subnet
        self.report = TrafficReport(sorted(host_interfaces()) if interfaces is None else list(interfaces))
        self.error: BaseException | None = None
        self._stop = threading.Event()
        self._sockets: list[socket.socket] = []
        self._thread: threading.Thread | None = None
        self._started = 0.0

    def __enter__(self) -> "TrafficWatch":
        for name in self.report.interfaces:
            sock = socket.socket(socket.AF_PACKET, socket.SOCK_RAW, socket.htons(ETH_P_ALL))
            sock.bind((name, 0))
            sock.setblocking(False)
            self._sockets.append(sock)
        self.report.counters_before = host_interfaces()
        self._started = time.monotonic()
        self._thread = threading.Thread(target=self._count, daemon=True, name="traffic-watch")
        self._thread.start()
        return self

    def __exit__(self, *_exc) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=5.0)
        for sock in self._sockets:
            sock.close()
        self.report.counters_after = host_interfaces()
        self.report.seconds = time.monotonic() - self._started

    def _count(self) -> None:
        try:
            self._count_frames()
        except BaseException as exc:   # a watch that stopped counting must not pass
            self.error = exc

    def _count_frames(self) -> None:
        while not self._stop.is_set():
            ready, _, _ = select.select(self._sockets, [], [], 0.2) if self._sockets else ([], [], [])
            if not self._sockets:
                self._stop.wait(0.2)
            for sock in ready:
                while True:
                    try:
                        frame = sock.recv(256)          # headers are enough
                    except BlockingIOError:
                        break
                    except OSError:     # ENETDOWN: an interface that is down carries nothing
                        break
                    dds, ours = classify(frame, self.ports, self.subnet)
                    self.report.frames_seen += 1
                    self.report.dds_packets += dds
                    self.report.subnet_packets += ours

    def check(self) -> TrafficReport:
        """IsolationError if any DDS packet of the domain or any test-subnet packet was seen."""
        if self.error is not None:
            raise IsolationError(f"the traffic watch stopped counting: {self.error!r}")
        if self.report.dds_packets or self.report.subnet_packets:
            raise IsolationError(f"traffic on the host's own interfaces: {self.report.describe()}")
        return self.report
