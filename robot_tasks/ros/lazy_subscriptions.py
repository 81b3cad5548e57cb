"""Streams a server listens to only while it works (lazy subscriptions, as image_transport does).

A server spends most of its life idle, waiting for a goal. What it listens to while it
serves one -- joint_states, camera images, and with `use_sim_time` the sim's `/clock` --
arrives whether it works or not, and in rclpy every message costs: on this machine one
100 Hz stream is 5-8 % of a core for a process that does nothing with it (/clock 7 %,
joint_states 8 %, an empty node 0.3 %; /work/tmp/exp/sub_cost.py in issue 16's note). A
server subscribed to both while idle burns 15 % of a core for nothing.

So a server subscribes to those streams when a goal starts (`hold()`), and lets them go
when no goal has needed them for `linger_s` of wall time. The linger spans the short gaps
between one tree's goals, so DDS does not match and unmatch readers all the time; the
check runs on a steady-clock timer, because whether the process is idle is a question
about wall time.

Two things are stale after a pause, and callers must wait for them to be fresh:
* cached data: the servers' own freshness checks already refuse it (JointStateCache
  stamps entries on arrival, and anything from before the pause is older than the
  linger; a DetectObjects goal waits for a frame newer than itself);
* the node clock: while `/clock` is not subscribed, the ROS clock holds its last value.
  A goal that read that value as "now" would compute its deadlines from the past, so
  `clock_fresh()` is false until a `/clock` message has arrived since the streams came back.

rclpy has no public call to pause its TimeSource's `/clock` subscription; `pause_clock`
and `resume_clock` use its two private members (`_clock_sub`,
`clock_callback`), checked by test/ros/test_lazy_subscriptions.py so an rclpy upgrade
that renames them fails there, loudly. "Fresh" counts /clock messages, not clock values:
a sim that restarts begins again at t = 0, below the value the clock held.
"""
from __future__ import annotations

import time
from typing import Callable

from rclpy.clock import Clock, ClockType
from rclpy.qos import QoSProfile, ReliabilityPolicy
from rosgraph_msgs.msg import Clock as Clock_msg

CHECK_PERIOD_S = 0.5     # wall s between checks whether the streams are still needed
LINGER_S = 3.0           # wall s without need before they are let go


class LazySubscriptions:
    """Open while needed, closed `linger_s` after the last need (no ROS: the logic alone).

    `open_()` subscribes and returns the function that unsubscribes again."""

    def __init__(self, open_: Callable[[], Callable[[], None]], linger_s: float = LINGER_S,
                 clock: Callable[[], float] = time.monotonic):
        self._open, self.linger_s, self._clock = open_, float(linger_s), clock
        self._close: Callable[[], None] | None = None
        self._needed_at = -float("inf")
        self.open_count = 0

    @property
    def active(self) -> bool:
        return self._close is not None

    def hold(self) -> bool:
        """The streams are needed now: subscribe if not yet. True if this call subscribed."""
        self._needed_at = self._clock()
        if self._close is not None:
            return False
        self._close = self._open()
        self.open_count += 1
        return True

    def update(self, needed: bool) -> None:
        """Called periodically: hold while `needed`, let go after `linger_s` without need."""
        if needed:
            self.hold()
        elif self._close is not None and self._clock() - self._needed_at > self.linger_s:
            close, self._close = self._close, None
            close()


def uses_sim_time(node) -> bool:
    return bool(node.get_parameter("use_sim_time").value)


def pause_clock(node) -> None:
    """Stop listening to /clock; the node's ROS clock holds its last value (see the docstring)."""
    source = node._time_source
    if source._clock_sub is not None:
        node.destroy_subscription(source._clock_sub)
        source._clock_sub = None


def resume_clock(node, on_message: Callable[[], None] = lambda: None) -> None:
    """Listen to /clock again (only when the node runs on sim time), as rclpy's TimeSource
    does (same topic, same QoS, its own callback), calling `on_message()` after each."""
    if not uses_sim_time(node):
        return
    pause_clock(node)
    source = node._time_source

    def callback(msg) -> None:
        source.clock_callback(msg)
        on_message()

    source._clock_sub = node.create_subscription(
        Clock_msg, "/clock", callback, QoSProfile(depth=1, reliability=ReliabilityPolicy.BEST_EFFORT))


class ServerStreams:
    """A server's goal-time streams: `subscribe()` -> subscriptions, plus /clock under sim time.

    `needed()` says whether a goal still runs.
    With `start_open` the streams are subscribed from the start (a server that just came
    up is about to be used) and an idle one drops them `linger_s` later; without, nothing
    is subscribed before the first `hold()`."""

    def __init__(self, node, subscribe: Callable[[], list], needed: Callable[[], bool],
                 linger_s: float = LINGER_S,
                 check_period_s: float = CHECK_PERIOD_S, start_open: bool = True):
        self._node, self._subscribe, self._needed = node, subscribe, needed
        self._sim_time = uses_sim_time(node)
        self._clock_messages = 0           # /clock messages since start
        self._clock_messages_at_open = 0
        self.lazy = LazySubscriptions(self._open, linger_s)
        if start_open:
            self.lazy.hold()
        elif self._sim_time:
            pause_clock(node)
        node.create_timer(check_period_s, self.check, clock=Clock(clock_type=ClockType.STEADY_TIME))

    def check(self) -> None:
        """What the steady timer runs: hold while needed, let go after the linger."""
        self.lazy.update(self._needed())

    @property
    def active(self) -> bool:
        return self.lazy.active

    def hold(self) -> None:
        """A goal starts: make sure the streams are subscribed."""
        self.lazy.hold()

    def clock_fresh(self) -> bool:
        """A /clock message has arrived since the streams were (re)opened (always true on wall time)."""
        return not self._sim_time or self._clock_messages > self._clock_messages_at_open

    def _count_clock(self) -> None:
        self._clock_messages += 1

    def _open(self) -> Callable[[], None]:
        node = self._node
        subscriptions = list(self._subscribe())
        if self._sim_time:
            self._clock_messages_at_open = self._clock_messages
            resume_clock(node, self._count_clock)

        def close() -> None:
            for subscription in subscriptions:
                node.destroy_subscription(subscription)
            if self._sim_time:
                pause_clock(node)
        return close
