"""Process groups: one signal reaches a node and everything it started.

Every process belongs to a process group, named by the pid of its first member (the
leader). A child started with ``start_new_session=True`` leads a new session and a new
group, so the group holds that child and whatever it starts in turn (a launcher's
children, a shell's commands), and nothing of ours: a Ctrl-C in our terminal, sent to our
group, does not reach it, and ``os.killpg(pid, sig)`` reaches all of it at once.

A member can outlive its leader (a child that ignores the signal, or one started after
it was sent); :func:`processes_in_group` finds those in /proc, so they can be killed too.
Linux only.
"""
from __future__ import annotations

import os


def signal_group(pgid: int, sig: int) -> bool:
    """Send `sig` to every process of group `pgid`; False when the group has no process left."""
    try:
        os.killpg(pgid, sig)
    except ProcessLookupError:
        return False
    return True


def processes_in_group(pgid: int) -> list[int]:
    """Live (non-zombie) pids whose process group is `pgid`."""
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as f:
                stat = f.read()
        except OSError:
            continue
        # fields after the ")" that closes the command name: state ppid pgrp ...
        rest = stat[stat.rfind(")") + 2:].split()
        if len(rest) >= 3 and rest[0] != "Z" and int(rest[2]) == pgid:
            found.append(int(entry))
    return found
