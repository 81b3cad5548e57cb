"""What a process holds, read from /proc: Fast DDS shared memory, sockets, what it costs.

Used by the test harness (robot_tasks.testing.launcher) to prove that nodes leave
nothing behind and talk only over loopback (the members of a process group:
robot_tasks.process.group). Linux only; no ROS imports.
"""
from __future__ import annotations

import os
import re
from dataclasses import dataclass
from pathlib import Path

SHM_DIR = Path("/dev/shm")


def fastdds_segments() -> set[str]:
    """Names of all Fast DDS shared-memory files in /dev/shm (segments and semaphores)."""
    try:
        return {n for n in os.listdir(SHM_DIR) if n.startswith(("fastdds_", "sem.fastdds_"))}
    except FileNotFoundError:
        return set()


def fastdds_segments_of(pid: int) -> set[str]:
    """Fast DDS /dev/shm files that process `pid` maps or holds open (empty if it is gone).

    Each participant maps a segment ``fastdds_<id>`` and holds its lock file
    ``fastdds_<id>_el`` open (not mapped), so both places are read.
    """
    prefixes = ("/dev/shm/fastdds_", "/dev/shm/sem.fastdds_")
    paths = set()
    try:
        with open(f"/proc/{pid}/maps") as maps:
            for line in maps:
                fields = line.rstrip("\n").split(maxsplit=5)
                if len(fields) == 6:
                    paths.add(fields[5])
        for fd in os.listdir(f"/proc/{pid}/fd"):
            try:
                paths.add(os.readlink(f"/proc/{pid}/fd/{fd}"))
            except OSError:
                continue
    except (FileNotFoundError, ProcessLookupError, PermissionError):
        pass
    return {p[len("/dev/shm/"):].removesuffix(" (deleted)") for p in paths if p.startswith(prefixes)}


def fastdds_segments_in_use() -> set[str]:
    """Fast DDS /dev/shm files that some live process (of any user we can read) maps or holds."""
    used: set[str] = set()
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            used |= fastdds_segments_of(int(entry))
    return used


@dataclass(frozen=True)
class InetSocket:
    """One IPv4/IPv6 socket of a process, from /proc/<pid>/net/{udp,tcp}[6]."""

    proto: str  # "udp", "udp6", "tcp", "tcp6"
    local_ip: str
    local_port: int
    remote_ip: str
    remote_port: int
    inode: int

    def __str__(self) -> str:
        return f"{self.proto} {self.local_ip}:{self.local_port} -> {self.remote_ip}:{self.remote_port}"


def _hex_ip(text: str) -> str:
    """Decode the kernel's hex address (host byte order per 32-bit word)."""
    import ipaddress

    raw = bytes.fromhex(text)
    words = [raw[i:i + 4][::-1] for i in range(0, len(raw), 4)]  # little-endian words on x86
    return str(ipaddress.ip_address(b"".join(words)))


def inet_sockets_of(pid: int) -> list[InetSocket]:
    """Every UDP/TCP socket (IPv4 and IPv6) that process `pid` holds open.

    Maps the socket inodes of /proc/<pid>/fd to the rows of the namespace's
    /proc/<pid>/net tables (the same thing psutil.Process.net_connections does).
    """
    inodes = set()
    fd_dir = f"/proc/{pid}/fd"
    for fd in os.listdir(fd_dir):
        try:
            target = os.readlink(f"{fd_dir}/{fd}")
        except OSError:
            continue
        match = re.fullmatch(r"socket:\[(\d+)\]", target)
        if match:
            inodes.add(int(match.group(1)))
    sockets = []
    for proto in ("udp", "udp6", "tcp", "tcp6"):
        try:
            with open(f"/proc/{pid}/net/{proto}") as table:
                rows = table.read().splitlines()[1:]
        except FileNotFoundError:
            continue
        for row in rows:
            cols = row.split()
            inode = int(cols[9])
            if inode not in inodes:
                continue
            local, remote = cols[1].split(":"), cols[2].split(":")
            sockets.append(InetSocket(proto, _hex_ip(local[0]), int(local[1], 16),
                                      _hex_ip(remote[0]), int(remote[1], 16), inode))
    return sockets


# ---- what a process costs (benches: CPU per node, memory and descriptors over a soak) ----
def cpu_seconds(pid: int) -> float:
    """User + system CPU time that process `pid` has used so far [s] (/proc/<pid>/stat)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def rss_kb(pid: int) -> int:
    """Resident set size of process `pid` [kB], 0 if it is gone."""
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    except OSError:
        pass
    return 0


def open_fd_count(pid: int) -> int:
    """How many file descriptors process `pid` holds open (0 if it is gone)."""
    try:
        return len(os.listdir(f"/proc/{pid}/fd"))
    except OSError:
        return 0


def descendants(pid: int) -> list[int]:
    """Every live descendant of `pid` (children, their children ...), parents first."""
    found, frontier = [], [pid]
    while frontier:
        parent = frontier.pop(0)
        try:
            tasks = os.listdir(f"/proc/{parent}/task")
        except OSError:
            continue
        for tid in tasks:
            try:
                children = Path(f"/proc/{parent}/task/{tid}/children").read_text().split()
            except OSError:
                continue
            for child in map(int, children):
                if child not in found:
                    found.append(child)
                    frontier.append(child)
    return found


def command_line(pid: int) -> list[str]:
    """argv of process `pid` ([] if it is gone)."""
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes().decode(errors="replace").split("\0")[:-1]
    except OSError:
        return []
