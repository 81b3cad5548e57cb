"""The sim node's threads: one steps the World, one spins the ROS executor.

Why this shape (measured on this machine, franka_stacking at 240 Hz, settled scene):
one physics step costs ~40-90 us, and `executor.spin_once(timeout_sec=0)` ~80 us of CPU
(it rebuilds the wait set on every call).  Spinning between steps, even only every 5 ms,
cost 5-8 us per step -- more than the 80 % target leaves.  So the executor spins in its
own thread (blocked in rcl_wait, free, when nothing arrives) and its callbacks only post
work to an `Inbox`; the stepping thread runs that work between physics steps.  The
World is touched by the stepping thread alone, so it needs no locks.

Publications are scheduled in sim time (`Ticker`): joint_states at 100 Hz means 100 per
*sim* second at any real-time factor, like a driver's own clock.  With
real_time_factor > 0 the loop sleeps until each step's wall-clock time; at 0 it steps as
fast as it can, but at most `max_lead` sim seconds ahead of the nodes that act on it
(lead.py), then at real time until they act again.

Faster than real time, a sim-time schedule multiplies every subscriber's wall-clock
load: at 4.7x, /clock and joint_states at 100 Hz reach each of the five nodes that take
them at 470 messages per wall second, and each 100 Hz stream costs a Python subscriber
about 7 % of a core here.  So a `WallGate` caps /clock and joint_states in wall time too
(`stream_max_wall_rate`): what is due in sim time goes out only if the last one went out
long enough ago.  The default binds only above 1.5x real time, so at rtf 1 nothing is
dropped; the camera has the same kind of gate, off by default (parameters.py says why).

A stream message DDS cannot send is dropped, never fatal: Fast DDS blocks a reliable
write while a slow reader's history is full, for up to max_blocking_time, then fails it,
and rclpy raises RCLError ("cannot publish data"; ros2/rmw_fastrtps#310).  At rtf 0 that
ended a bench episode with the sim's traceback on `objects` (2026-12-04, drag seed 8).
Each failed publication is counted in `dropped` and logged at most every 10 wall s; the
next one due goes out as usual.
"""
from __future__ import annotations

import threading
import time
from typing import Callable

from rclpy.executors import ExternalShutdownException
from rclpy.impl.implementation_singleton import rclpy_implementation as _rclpy

from robot_tasks.nodes.sim.lead import MAX_LAG, LeadBound

RCLError = _rclpy.RCLError       # what a failed publish raises

MAX_WAIT = 0.05          # s; longest single sleep, so a stop request is seen quickly


class Ticker:
    """Fires once per `period` of sim time (never for hz <= 0); never bunches up after a stall."""

    __slots__ = ("period", "next")

    def __init__(self, hz: float):
        self.period = 1.0 / hz if hz > 0 else float("inf")
        self.next = 0.0 if hz > 0 else float("inf")

    def due(self, t: float) -> bool:
        if t < self.next:
            return False
        self.next += self.period
        if self.next <= t:                # fell behind (a slow camera frame): skip ahead
            self.next = t + self.period
        return True


class WallGate:
    """Lets through at most `hz` events per wall second (hz <= 0: every event).

    `slack` < 1 narrows the gap, so that jitter at exactly `hz` never closes the gate.
    """

    __slots__ = ("gap", "last")

    def __init__(self, hz: float, slack: float = 1.0):
        self.gap = slack / hz if hz > 0 else 0.0
        self.last = -float("inf")

    def open(self, now: float) -> bool:
        """True if an event at wall time `now` may pass (it is not recorded: see `passed`)."""
        return now - self.last >= self.gap

    def passed(self, now: float) -> None:
        self.last = now


class ExecutorThread:
    """Spins an executor in a daemon thread; `stop()` shuts down in the safe order.

    A callback that raises is reported to `on_error` and spinning goes on: one bad
    request must not leave the sim deaf to every later one.
    """

    def __init__(self, executor, on_error: Callable[[BaseException], None] | None = None):
        self.executor = executor
        self._on_error = on_error
        self._stopping = False
        self._thread = threading.Thread(target=self._spin, name="ros-executor", daemon=True)

    def _spin(self) -> None:
        while not self._stopping:
            try:
                self.executor.spin()
                return
            except ExternalShutdownException:
                return
            except Exception as err:  # noqa: BLE001 - keep serving
                if self._stopping or self._on_error is None:
                    raise
                self._on_error(err)

    def start(self) -> "ExecutorThread":
        self._thread.start()
        return self

    def stop(self, timeout: float = 10.0) -> bool:
        """executor.shutdown(), then join (skipping the join aborts rclpy at exit)."""
        self._stopping = True
        self.executor.shutdown()
        if self._thread.is_alive():
            self._thread.join(timeout)
        return not self._thread.is_alive()


class SteppingLoop:
    """Steps a SimNode: `run(stop)` until stop() is true (or `max_steps` more steps)."""

    def __init__(self, node):
        self.node = node
        params = node.params
        self.js_ticker = Ticker(params.joint_state_rate)
        self.clock_ticker = Ticker(params.clock_rate)
        self.object_ticker = Ticker(params.object_rate)
        self.camera_ticker = Ticker(params.camera_rate)
        self._tickers = (self.js_ticker, self.clock_ticker, self.object_ticker, self.camera_ticker)
        # frames closer than this in wall time are skipped (camera_max_wall_rate); the 0.8
        # leaves room for jitter so that at rtf 1 no frame is ever skipped
        self._camera_gate = WallGate(params.camera_max_wall_rate, slack=0.8)
        self._clock_gate = WallGate(params.stream_max_wall_rate)
        self._js_gate = WallGate(params.stream_max_wall_rate)
        self.skipped_frames = 0
        self.gated = 0                      # /clock and joint_states messages not sent
        self.dropped = 0                    # publications DDS refused (see the module docstring)
        self._last_drop_warning = -1e9
        self._next_due = 0.0
        self.steps = 0
        self._last_lag_warning = -1e9
        # rtf 0: bounded lead over the nodes that act on the sim (lead.py); a negative
        # max_lead is the old unbounded rtf 0
        self.lead = None
        if params.real_time_factor == 0 and params.max_lead >= 0:
            self.lead = LeadBound(params.max_lead, node.world.time_step, node.executing,
                                  node.get_logger().info)

    def step(self) -> None:
        """One physics step, then every publication that is due at the new sim time."""
        node = self.node
        step_time = node.ros_time()            # the time the controllers command at
        node.world.step()
        self.steps += 1
        if node.params.controller_state:
            for robot in node.robots:
                self._guarded("controller state", robot.publish_controller_state, step_time)
        t = node.ros_time()
        for robot in node.robots:             # a trajectory goal ends in the step its trajectory did
            robot.trajectory_controller.poll(t)
        if t >= self._next_due:               # most steps stop here: nothing to publish
            self._publish_due(t)

    def _publish_due(self, t: float) -> None:
        node = self.node
        now = time.perf_counter()
        if self.clock_ticker.due(t):
            if self._clock_gate.open(now):
                self._clock_gate.passed(now)
                self._guarded("/clock", node.publish_clock, t)
            else:
                self.gated += 1
        if self.js_ticker.due(t):
            publish = self._js_gate.open(now)
            if publish:
                self._js_gate.passed(now)
            else:
                self.gated += 1
            for robot in node.robots:
                if publish:
                    self._guarded("joint_states", robot.publish_joint_states, t)
                self._guarded("gripper driver", robot.poll_gripper)   # goal ends and IO events: never gated
        if node.objects is not None and self.object_ticker.due(t):
            self._guarded("objects", node.objects.publish, t)
        if node.camera is not None and self.camera_ticker.due(t):
            self._guarded("camera", self._publish_frame, t)
        self._next_due = min(ticker.next for ticker in self._tickers)

    def _guarded(self, what: str, publish: Callable, *args) -> None:
        """Run one publication; a message DDS refuses is dropped and counted, not fatal."""
        try:
            publish(*args)
        except RCLError as err:
            self.dropped += 1
            now = time.monotonic()
            if now - self._last_drop_warning > 10.0:
                self._last_drop_warning = now
                self.node.get_logger().warning(
                    f"dropped a '{what}' message DDS could not send ({str(err).splitlines()[0][:120]}); "
                    f"{self.dropped} dropped so far, a subscriber may be too slow")

    def _publish_frame(self, t: float) -> None:
        now = time.perf_counter()
        if not self._camera_gate.open(now):
            self.skipped_frames += 1          # faster than real time: nobody could use this frame
            return
        if self.node.camera.publish(t):
            self._camera_gate.passed(now)

    def run(self, stop: Callable[[], bool], max_steps: int | None = None) -> int:
        """Step until stop() or max_steps; return the total number of steps taken."""
        node = self.node
        rtf = node.params.real_time_factor
        wall_per_step = node.world.time_step / rtf if rtf > 0 else 0.0
        inbox, step, clock, sleep = node.inbox, self.step, time.perf_counter, time.sleep
        pending = inbox.pending
        lead = self.lead
        anchor_wall, anchor_step = clock(), self.steps
        end = None if max_steps is None else self.steps + max_steps
        while not stop():
            if pending:
                started = clock()
                inbox.drain()
                if lead is not None:               # the nodes acted: their acknowledged clock
                    lead.acknowledge(node.ros_time())
                if wall_per_step and clock() - started > MAX_LAG:   # e.g. a reset: no catch-up
                    anchor_wall, anchor_step = clock(), self.steps
            if lead is not None:
                wait = lead.delay(node.ros_time(), clock())
                if wait > 0:                       # ahead of the nodes by max_lead: real time
                    sleep(min(wait, MAX_WAIT))
                    continue
            elif wall_per_step:
                now = clock()
                wait = anchor_wall + (self.steps - anchor_step) * wall_per_step - now
                if wait > 0:                       # early: sleep (the executor thread runs)
                    sleep(min(wait, MAX_WAIT))
                    continue
                if wait < -MAX_LAG:                # too slow for this factor: stop catching up
                    anchor_wall, anchor_step = now, self.steps
                    self._warn_lag(rtf, now)
            step()
            if end is not None and self.steps >= end:
                break
        return self.steps

    def _warn_lag(self, rtf: float, now: float) -> None:
        if now - self._last_lag_warning > 10.0:
            self._last_lag_warning = now
            self.node.get_logger().warning(
                f"running slower than real_time_factor {rtf:g}: more than {MAX_LAG} s behind "
                f"the wall clock (camera frames are the usual cost); continuing at full speed")
