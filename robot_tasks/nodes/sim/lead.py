"""How far the sim may run ahead of the nodes that act on it at real_time_factor 0.

At rtf 1 a sim second is a wall second for everybody: while the arm server plans for 0.4 s,
the tree decides and the messages travel, 0.4 s of sim time pass, as on the real robot. At
rtf 0 the sim steps as fast as it can, so the same 0.4 wall s became several sim seconds
(issue 37: the stacking episode lasted 2.89x the sim time of rtf 1): every sensor was older,
in sim time, when a node acted on it, and objects kept moving (a cube settling, a dragged
cube sliding) while the nodes thought.

The rule. The sim knows when the nodes act on it: every command, goal, cancel and service
call reaches the stepping thread through the inbox, and it knows when it is still carrying
one out (a trajectory runs, the hand moves). That is the nodes' *acknowledged clock*: the
newest sim time at which they commanded the sim or waited on a command of theirs. At rtf 0
the sim steps at full speed while it carries out a command (the nodes wait on the world,
not the other way round) and up to `max_lead` sim seconds past the acknowledged clock;
beyond that it steps no faster than real time, as at rtf 1, until the nodes act again. So
the sim time that passes while the nodes plan, detect and talk is at most rtf 1's plus
`max_lead` per pause, and a node that streams commands (a compliant controller's targets)
keeps the sim within `max_lead` of its stream.

No protocol: the servers, the tree and real drivers do nothing new; the sim reads only what
it is sent. Nothing deadlocks: beyond the lead the sim slows to real time, it never stops,
so a node that waits for a new camera frame or for time to pass gets it, and a dead node
leaves the sim at rtf 1 (said once in the log). The bound starts at the first command, or
earlier, as soon as a node that will command the sim is connected to it (commanders.py:
an action client of its controllers, a publisher on its command topics); until then nobody
acts on the sim, and it runs free (a scene settling, a test that only reads /clock).

What it does not bound: while one robot executes, the sim runs at full speed although
another robot's server may be planning (franka_pyramid's two arms); that lead lasts as long
as the running command.
"""
from __future__ import annotations

import re
from typing import Callable

MAX_LAG = 0.25           # s behind the wall-clock schedule before re-anchoring it (no catch-up burst)


class LeadBound:
    """The rtf-0 pacing: `delay(t, now)` says how long to wait before the step from sim time t.

    `executing()` tells whether the sim still carries out a command of the nodes;
    `on_first_pace(text)` is told once, the first time the bound binds.
    """

    def __init__(self, max_lead: float, time_step: float, executing: Callable[[], bool],
                 on_first_pace: Callable[[str], None] | None = None):
        self.max_lead = max_lead
        self.time_step = time_step          # sim s per step = wall s per step when paced
        self._executing = executing
        self._on_first_pace = on_first_pace
        self.acked: float | None = None     # the acknowledged clock; None: nobody acted yet
        self._anchor: tuple[float, float] | None = None   # (wall, sim) of the real-time schedule
        self._spell_from = 0.0              # sim time the current paced spell began
        self.paced_spells = 0               # times the bound bound
        self.paced_sim = 0.0                # sim s stepped at real time

    def summary(self) -> str:
        """The sim's exit line at rtf 0 (robot_tasks/nodes/sim/main.py); `paced_in_log` reads it back."""
        return (f"real_time_factor 0: paced at real time {self.paced_spells} times, {self.paced_sim:.1f} sim s "
                f"in all, waiting for the nodes' next command (max_lead {self.max_lead:g} s)")

    def acknowledge(self, t: float) -> None:
        """The nodes acted at sim time t (a command arrived): full speed again."""
        self.acked = t
        if self._anchor is not None:
            self.paced_sim += t - self._spell_from
            self._anchor = None

    def start_at(self, t: float) -> None:
        """A node that will command the sim is connected at sim time t (commanders.py): if
        none has acted yet, count t as their first acknowledged time. Called from the
        executor thread: while `acked` is None the stepping thread only reads it, and a
        command acknowledged meanwhile wins (it is newer)."""
        if self.acked is None:
            self.acked = t

    def delay(self, t: float, now: float) -> float:
        """Wall seconds to wait before stepping from sim time `t` at wall time `now` (<= 0: step)."""
        acked = self.acked
        if acked is None or t < acked + self.max_lead:
            return 0.0
        if self._executing():               # the nodes wait on the world: it may run
            self.acknowledge(t)
            return 0.0
        if self._anchor is None:
            self._anchor, self._spell_from = (now, t), t
            self.paced_spells += 1
            if self.paced_spells == 1 and self._on_first_pace is not None:
                self._on_first_pace(
                    f"real_time_factor 0: no command from the nodes for max_lead {self.max_lead:g} sim s "
                    f"(they plan, detect or decide, or none is left): stepping at real time until the "
                    f"next one (said once)")
        wall0, sim0 = self._anchor
        wait = wall0 + (t - sim0) - now
        if wait < -MAX_LAG:                 # a slow step (a camera frame): no catch-up burst
            self._anchor = (now, t)
            return 0.0
        return wait


_SUMMARY = re.compile(r"paced at real time \d+ times, ([0-9.]+) sim s in all")


def paced_in_log(text: str) -> float | None:
    """The sim seconds a run's sim stepped at real time, waiting for the nodes, from its log
    (the `summary` line); paced at real time, they are wall seconds too. None without it."""
    found = _SUMMARY.search(text)
    return float(found.group(1)) if found else None
