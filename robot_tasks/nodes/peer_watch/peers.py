"""Which expected peers are in the ROS graph, and what changed since the last look.

A bringup that runs half of a cell (`robot-tasks bringup ... --skip sim` on the task's
computer) depends on nodes it does not start: its *peers*, on another computer. Nothing in
its own processes says when that computer goes away -- the clients' goals fail, each with
its own error. The graph does: DDS discovery lists every node it has heard of, and drops a
node when it ends cleanly (at once) or when nothing has been heard from its participant for
the lease duration (Fast DDS's default: 20 s), which is what a pulled cable or a dead
computer looks like.

A computer that dies and boots again within the lease shows differently: the new node joins
under the same name while the old one is still listed, so for a while the graph holds the name
twice. That is reported too ("started again").

`PeerBook.update(present, now)` takes the fully qualified names now in the graph (a name
twice when two nodes carry it) and returns what to report: a peer seen for the first time, one
that left, one that came back, one that started again, and one still never seen
`missing_after_s` after the start.
"""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass


@dataclass(frozen=True)
class PeerEvent:
    peer: str
    kind: str        # "seen" | "lost" | "back" | "again" | "missing"
    text: str
    warning: bool


class PeerBook:
    """The expected peers' states between looks at the graph (module docstring)."""

    def __init__(self, peers, start: float, missing_after_s: float = 10.0):
        self.peers = list(dict.fromkeys(peers))
        self.start, self.missing_after_s = start, float(missing_after_s)
        self.present: dict[str, bool] = {}          # peer -> in the graph at the last look (absent: never seen)
        self.since: dict[str, float] = {}           # peer -> when it was last seen or lost
        self._missing_told: set[str] = set()
        self._count: dict[str, int] = {}            # peer -> how many nodes carried its name at the last look

    def update(self, present_names, now: float) -> list[PeerEvent]:
        names = Counter(present_names)
        events = []
        for peer in self.peers:
            here, before = names[peer] > 0, self.present.get(peer)
            if before and names[peer] > self._count.get(peer, 0):
                events.append(PeerEvent(peer, "again", f"peer {peer} started again: a new {peer} joined the "
                                        f"ROS graph while the old one is still listed (a restart within the DDS "
                                        f"lease, or two nodes with one name)", False))
            self._count[peer] = names[peer]
            if here and before is None:
                events.append(PeerEvent(peer, "seen", f"peer {peer} is in the ROS graph "
                                        f"({now - self.start:.1f} s after the start)", False))
            elif here and before is False:
                events.append(PeerEvent(peer, "back", f"peer {peer} is back in the ROS graph, "
                                        f"{now - self.since[peer]:.1f} s after it was lost", False))
            elif not here and before:
                events.append(PeerEvent(peer, "lost", f"peer {peer} LOST: gone from the ROS graph (it ended, or "
                                        f"its computer has not been heard for the DDS lease)", True))
            elif (not here and before is None and peer not in self._missing_told
                  and now - self.start >= self.missing_after_s):
                self._missing_told.add(peer)
                events.append(PeerEvent(peer, "missing", f"peer {peer} not in the ROS graph {self.missing_after_s:g} s "
                                        f"after the start: is its computer up, on the same ROS_DOMAIN_ID, and "
                                        f"reachable by discovery?", True))
            if events and events[-1].peer == peer and events[-1].kind != "missing":
                self.since[peer] = now
            if here or before is not None:
                self.present[peer] = here
        return events

    def lost(self) -> list[str]:
        """The peers seen once and not in the graph now."""
        return [peer for peer, here in self.present.items() if not here]
