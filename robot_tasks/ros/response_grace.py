"""When may a server judge the robot's answer to a command it just sent?

A server that runs on sim time (use_sim_time) judges motions by the node clock: "the
trajectory ended `settle_timeout` s ago and the arm is not there", "the fingers have not
moved for `stall_window` s". Faster than real time those sim seconds pass while the
command and the joint_states that answer it are still on the wire: at rtf 0 the sim steps
~8 sim s per wall s, so a 2 s settle window is 0.25 wall s. Measured on 2026-12-04: a
trajectory judged CONTROLLER_FAILED 0.14 wall s after it was sent, and a closing gripper
judged "holding an object" at the width it started from.

So a verdict of "it did not answer" needs both clocks: the sim-time window, and a grace in
wall time since the command went out. At rtf 1 the grace is shorter than the motions it
guards, and changes nothing.
"""
from __future__ import annotations

import time


class ResponseGrace:
    """Started when a command is sent; `over()` once `seconds` of wall time have passed."""

    __slots__ = ("seconds", "sent", "_clock")

    def __init__(self, seconds: float, clock=time.monotonic):
        self.seconds, self._clock = seconds, clock
        self.sent = clock()

    def elapsed(self) -> float:
        """Wall seconds since the command was sent."""
        return self._clock() - self.sent

    def over(self) -> bool:
        return self.elapsed() >= self.seconds
