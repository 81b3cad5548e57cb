"""The latest measured joint state, by joint name (no rclpy: takes any JointState-like object).

A robot may publish its joints in several messages (arm and gripper separately, as
ros2_control's joint_state_broadcaster can), so each joint keeps its own latest value.
Ages are measured on the monotonic wall clock: "is the driver still talking?" is a
question about the process, not about sim time.

Silence has two possible speakers. A driver that stopped publishing leaves the cache to
age; so does a reader that was itself not running (starved of CPU on a loaded machine, or
blocked in a long callback): it wakes with messages waiting in its queue, and its
executor may resume the polling task before it takes them. `PollGaps` tells the two apart
by timing the reader's own polls; a check right after a long gap is not trusted to judge
the driver.
"""
from __future__ import annotations

import math
import threading
import time

import numpy as np

from robot_tasks.control.motion_errors import ErrorCode, MotionFailure


class JointStateCache:
    """Thread-safe name -> (position, velocity, effort, arrival time) store."""

    def __init__(self, clock=time.monotonic):
        self._clock = clock
        self._lock = threading.Lock()
        self._joints: dict[str, tuple[float, float, float, float]] = {}
        self.message_count = 0

    def update(self, msg) -> None:
        """Store a sensor_msgs/JointState (velocity/effort may be empty, as the message allows)."""
        now = self._clock()
        names = list(msg.name)
        pos, vel, eff = list(msg.position), list(msg.velocity), list(msg.effort)
        with self._lock:
            self.message_count += 1
            for i, name in enumerate(names):
                if i >= len(pos) or not math.isfinite(pos[i]):
                    continue  # a malformed entry must not poison the cache
                v = vel[i] if i < len(vel) and math.isfinite(vel[i]) else 0.0
                e = eff[i] if i < len(eff) and math.isfinite(eff[i]) else 0.0
                self._joints[name] = (float(pos[i]), float(v), float(e), now)

    def known(self) -> list:
        with self._lock:
            return sorted(self._joints)

    def age(self, names) -> float:
        """Seconds since the stalest of `names` was updated (inf if one was never seen)."""
        now = self._clock()
        with self._lock:
            stamps = [self._joints[n][3] if n in self._joints else -math.inf for n in names]
        return now - min(stamps) if stamps else math.inf

    def newest_age(self) -> float:
        """Seconds since any joint was last updated (inf before the first message)."""
        now = self._clock()
        with self._lock:
            return now - max(j[3] for j in self._joints.values()) if self._joints else math.inf

    def _column(self, names, column: int, max_age: float) -> np.ndarray:
        now = self._clock()
        with self._lock:
            missing = [n for n in names if n not in self._joints]
            if missing:
                seen = sorted(self._joints) or "none yet"
                raise MotionFailure(ErrorCode.NO_JOINT_STATES,
                                    f"joint_states has no {missing} (joints seen: {seen})")
            stale = [n for n in names if now - self._joints[n][3] > max_age]
            if stale:
                age = max(now - self._joints[n][3] for n in stale)
                raise MotionFailure(ErrorCode.NO_JOINT_STATES,
                                    f"joint_states for {stale} older than {max_age:g} s "
                                    f"(the last came {age:.2f} s ago)")
            return np.array([self._joints[n][column] for n in names])

    def positions(self, names, max_age: float = math.inf) -> np.ndarray:
        """Positions in the order of `names`; MotionFailure(NO_JOINT_STATES) if missing/stale."""
        return self._column(names, 0, max_age)

    def velocities(self, names, max_age: float = math.inf) -> np.ndarray:
        return self._column(names, 1, max_age)

    def efforts(self, names, max_age: float = math.inf) -> np.ndarray:
        return self._column(names, 2, max_age)


class PollGaps:
    """Times a reader's polls, so that its own stall is not blamed on the driver.

    Call `max_age(limit)` once per poll, and read the cache with what it returns: the
    `limit` itself, or no limit (inf) when this poll comes more than half the limit after
    the previous one. That poll only lets the executor take the queued messages; the next
    one judges. A driver that really stopped is still caught one poll later, well inside
    twice the limit.
    """

    def __init__(self, clock=time.monotonic):
        self._clock = clock
        self._last: float | None = None
        self.stalls = 0          # polls forgiven, for the record

    def max_age(self, limit: float) -> float:
        now = self._clock()
        last, self._last = self._last, now
        if last is not None and now - last > 0.5 * limit:
            self.stalls += 1
            return math.inf
        return limit
