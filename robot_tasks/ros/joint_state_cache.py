"""The latest measured joint state, by joint name (no rclpy: takes any JointState-like object).

A robot may publish its joints in several messages (arm and gripper separately, as
ros2_control's joint_state_broadcaster can), so each joint keeps its own latest value.
Ages are measured on the monotonic wall clock: "is the driver still talking?" is a
question about the process, not about sim time.
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
                raise MotionFailure(ErrorCode.NO_JOINT_STATES,
                                    f"joint_states for {stale} older than {max_age:g} s")
            return np.array([self._joints[n][column] for n in names])

    def positions(self, names, max_age: float = math.inf) -> np.ndarray:
        """Positions in the order of `names`; MotionFailure(NO_JOINT_STATES) if missing/stale."""
        return self._column(names, 0, max_age)

    def velocities(self, names, max_age: float = math.inf) -> np.ndarray:
        return self._column(names, 1, max_age)

    def efforts(self, names, max_age: float = math.inf) -> np.ndarray:
        return self._column(names, 2, max_age)
