"""Two computers on one machine: two network namespaces joined by one virtual cable.

A network namespace is a private copy of the kernel's network stack: its own interfaces,
addresses, routes and sockets. A process started in one (``ip netns exec <ns> ...``) sees
only that copy, so two namespaces behave like two computers. A *veth pair* is a virtual
cable: two interfaces, whatever enters one leaves the other. :class:`TwoHosts` makes

    rt-host-<pid>-robot  [lo] [veth0 198.51.100.1/24] ====== [veth0 198.51.100.2/24] [lo]  rt-host-<pid>-task

and nothing else: no default route (only the subnet's and multicast's, both on the veth), no
bridge, no interface of the real machine (the root namespace) is touched -- the veth is
created directly inside the two namespaces, so a packet in them has exactly one place to
go, the other namespace. DDS there may use
multicast and any address it likes (the deployment opt-out, ``ROBOT_TASKS_DDS=system``)
without a packet reaching the real network; :mod:`robot_tasks.testing.isolation` checks it.

The subnet is 198.51.100.0/24 (TEST-NET-2, RFC 5737: reserved for documentation, never
routed), not 192.0.2.0/24: some machines (the machine this was written on among them) put their own eth0
in TEST-NET-1, and a subnet no host interface uses keeps any leak unmistakable.

Clean-up is the point of the class: the namespaces (and with them the veth) are deleted on
``__exit__`` -- after a failure or Ctrl-C too -- and by an ``atexit`` hook and a SIGTERM
handler for a process that never reaches ``__exit__``. A SIGKILLed run leaves them behind;
the next :class:`TwoHosts` removes every ``rt-host-<pid>-*`` namespace whose pid is gone
(a running pid's namespaces belong to a parallel run and are left alone; a ``tag`` that is
not a pid cannot be checked and counts as gone).

Needs root and iproute2's ``ip``; :func:`unavailable_reason` says why not (tests skip on it).

    with TwoHosts() as hosts:
        robot = hosts.popen("robot", ["python", "-m", "robot_tasks.nodes.sim", ...], env=env)
        print(hosts.address("task"))        # 198.51.100.2
"""
from __future__ import annotations

import atexit
import ipaddress
import os
import shutil
import signal
import subprocess
import threading
from pathlib import Path

from robot_tasks.process.managed import stop_group

PREFIX = "rt-host-"
SUBNET = ipaddress.ip_network("198.51.100.0/24")
MULTICAST_ROUTE = "224.0.0.0/4"
VETH = "veth0"                      # the same name in both namespaces (each has its own)
HOSTS = ("robot", "task")           # robot host: the drivers (sim); task host: servers + tree
IP_TIMEOUT_S = 10.0


class NetnsError(RuntimeError):
    """An `ip` command failed while building or removing the namespaces."""


def unavailable_reason() -> str | None:
    """Why namespaces cannot be made here (None: they can). Tests skip with this text."""
    if shutil.which("ip") is None:
        return "no `ip` command (iproute2) on PATH"
    if os.geteuid() != 0:
        return "network namespaces need root (`ip netns add` as uid 0)"
    probe = f"{PREFIX}{os.getpid()}-probe"
    made = subprocess.run(["ip", "netns", "add", probe], capture_output=True, text=True, timeout=IP_TIMEOUT_S)
    if made.returncode != 0:
        return f"`ip netns add` failed: {made.stderr.strip() or made.returncode} (no CAP_SYS_ADMIN / EPERM?)"
    subprocess.run(["ip", "netns", "del", probe], capture_output=True, timeout=IP_TIMEOUT_S)
    return None


def ip(*args: str, check: bool = True) -> str:
    """Run `ip args...`; its stdout (NetnsError with stderr when it fails and `check`)."""
    done = subprocess.run(["ip", *args], capture_output=True, text=True, timeout=IP_TIMEOUT_S)
    if check and done.returncode != 0:
        raise NetnsError(f"ip {' '.join(args)}: {done.stderr.strip() or f'exit {done.returncode}'}")
    return done.stdout


def namespaces() -> list[str]:
    """Names of every network namespace `ip netns` knows."""
    return [line.split()[0] for line in ip("netns", "list").splitlines() if line.strip()]


def remove_leftovers() -> list[str]:
    """Delete the namespaces of earlier runs whose process is gone; return their names."""
    removed = []
    for name in namespaces():
        if not name.startswith(PREFIX):
            continue
        owner = name[len(PREFIX):].split("-", 1)[0]
        if owner.isdigit() and int(owner) != os.getpid() and Path(f"/proc/{owner}").exists():
            continue                                  # a parallel run's, still alive
        ip("netns", "del", name, check=False)
        removed.append(name)
    return removed


class TwoHosts:
    """The two namespaces and their cable (see the module docstring)."""

    def __init__(self, tag: str | None = None):
        self.tag = tag or str(os.getpid())
        self.names = {host: f"{PREFIX}{self.tag}-{host}" for host in HOSTS}
        hosts = list(SUBNET.hosts())
        self.addresses = {host: hosts[i] for i, host in enumerate(HOSTS)}
        self.processes: list[subprocess.Popen] = []
        self._up = False
        self._lock = threading.Lock()

    # ---- building and removing -------------------------------------------------------
    def __enter__(self) -> "TwoHosts":
        remove_leftovers()
        atexit.register(self.close)
        _close_on_sigterm()
        try:
            self._build()
        except BaseException:
            self.close()
            raise
        return self

    def __exit__(self, *_exc) -> None:
        self.close()

    def _build(self) -> None:
        self._up = True                               # from here on, close() has work to do
        _OPEN.add(self)
        robot, task = self.names["robot"], self.names["task"]
        for ns in (robot, task):
            ip("netns", "add", ns)
            # no IPv6 at all: no link-local addresses, router solicitations or MLD reports
            self.run(ns, ["sysctl", "-q", "-w", "net.ipv6.conf.all.disable_ipv6=1",
                          "net.ipv6.conf.default.disable_ipv6=1"])
            ip("-n", ns, "link", "set", "lo", "up")
        # created inside the namespaces: the cable never exists in the root namespace
        ip("link", "add", VETH, "netns", robot, "type", "veth", "peer", "name", VETH, "netns", task)
        for host, ns in self.names.items():
            ip("-n", ns, "addr", "add", f"{self.addresses[host]}/{SUBNET.prefixlen}", "dev", VETH)
            # multicast is on for a veth by default; said here because DDS discovery needs it
            ip("-n", ns, "link", "set", VETH, "multicast", "on", "up")
            # A real machine sends multicast along its default route; with no route at all the
            # kernel refuses to send DDS discovery to 239.255.0.1 (ENETUNREACH, measured: the
            # two hosts never met). This route covers multicast only, and only on the cable.
            ip("-n", ns, "route", "add", MULTICAST_ROUTE, "dev", VETH)

    def close(self) -> None:
        """Stop what we started in the namespaces, then delete them (idempotent)."""
        with self._lock:
            if not self._up:
                return
            self._up = False
        for process in reversed(self.processes):
            stop_process(process)
        for ns in self.names.values():
            ip("netns", "del", ns, check=False)
        _OPEN.discard(self)
        atexit.unregister(self.close)

    # ---- using them ------------------------------------------------------------------
    def ns(self, host: str) -> str:
        return self.names[host]

    def address(self, host: str) -> str:
        return str(self.addresses[host])

    def argv(self, host: str, argv: list[str]) -> list[str]:
        """`argv` as run inside `host`'s namespace (it inherits the caller's environment)."""
        return ["ip", "netns", "exec", self.names[host], *argv]

    def run(self, ns_or_host: str, argv: list[str], **kwargs) -> subprocess.CompletedProcess:
        """Run to the end inside a namespace (host name or namespace name); raises on failure."""
        ns = self.names.get(ns_or_host, ns_or_host)
        kwargs.setdefault("capture_output", True)
        kwargs.setdefault("text", True)
        kwargs.setdefault("timeout", 60.0)
        done = subprocess.run(["ip", "netns", "exec", ns, *argv], **kwargs)
        if kwargs.get("check", True) and done.returncode != 0:
            raise NetnsError(f"in {ns}: {' '.join(argv)}: exit {done.returncode}: {(done.stderr or '')[-500:]}")
        return done

    def popen(self, host: str, argv: list[str], **kwargs) -> subprocess.Popen:
        """Start `argv` inside `host`'s namespace in its own process group; it is stopped
        (the stop sequence: SIGINT, SIGTERM, SIGKILL to the group) by `close()` if still running then."""
        kwargs.setdefault("start_new_session", True)
        kwargs.setdefault("stdin", subprocess.DEVNULL)
        process = subprocess.Popen(self.argv(host, argv), **kwargs)  # `ip netns exec` execs: same pid
        self.processes.append(process)
        return process


def stop_process(process: subprocess.Popen, sigint_s: float = 15.0, sigterm_s: float = 5.0) -> int | None:
    """Stop one process group we started with the stop sequence (SIGINT, then SIGTERM, then
    SIGKILL, then the group's leftovers: robot_tasks.process.managed); its exit code."""
    stop_group(process, sigint_s, sigterm_s, sigkill_s=5.0)
    return process.poll()


# ---- clean-up when the process is told to end ------------------------------------------
_OPEN: set[TwoHosts] = set()
_SIGTERM_HOOKED = False


def _close_on_sigterm() -> None:
    """SIGTERM's default action ends the process without atexit hooks: turn it into
    SystemExit (which runs `__exit__` and atexit) -- only if nobody else handles it."""
    global _SIGTERM_HOOKED
    if _SIGTERM_HOOKED or threading.current_thread() is not threading.main_thread():
        return
    if signal.getsignal(signal.SIGTERM) is signal.SIG_DFL:
        signal.signal(signal.SIGTERM, _on_sigterm)
    _SIGTERM_HOOKED = True


def _on_sigterm(_signum, _frame) -> None:
    for hosts in list(_OPEN):
        hosts.close()
    raise SystemExit(128 + signal.SIGTERM)
