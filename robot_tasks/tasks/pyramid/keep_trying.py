"""KeepTrying: a decorator that re-runs a failing child until it succeeds, saying so.

A recovery motion that does not converge (the arm server reports an unreached goal,
the IK finds nothing from here) is worth trying again rather than giving the task up;
but a robot that retries silently looks hung. KeepTrying re-ticks its child after
every FAILURE, like RetryUntilSuccessful with -1 attempts, and once an attempt has
failed it logs a warning every `warn_period` wall seconds until one succeeds (0 = no
warnings: for a loop whose attempts are long and normally end well). `max_attempts` (0 = no
limit) bounds it for tests and benches.
"""
from __future__ import annotations

import logging
import time

from robot_tasks.bt import DecoratorNode, InputPort, NodeStatus

LOG = logging.getLogger("robot_tasks.tasks.pyramid")


class KeepTrying(DecoratorNode):
    """Re-tick the child after each FAILURE (one attempt per tick); warn every `warn_period` s."""

    @staticmethod
    def provided_ports():
        return [InputPort("warn_period", float, default=5.0, description="wall s between warnings; 0 = none"),
                InputPort("max_attempts", int, default=0, description="give up after this many; 0 = never"),
                InputPort("what", str, default="", description="what is being tried, for the warning")]

    def __init__(self, name, config=None):
        super().__init__(name, config)
        self.attempts, self.started, self.warned_at = 0, None, None

    def tick(self):
        now = time.monotonic()
        self.status = NodeStatus.RUNNING
        status = self.child.execute_tick()
        if status is NodeStatus.SUCCESS:
            self._reset()
            return NodeStatus.SUCCESS
        if status is NodeStatus.FAILURE:
            self.attempts += 1
            self.reset_child()
            if self.started is None:         # the first failure starts the clock of the warnings
                self.started = self.warned_at = now
            limit = self.get_input("max_attempts")
            if limit and self.attempts >= limit:
                LOG.warning("%s: %s failed %d times; giving up", self.full_path,
                            self.get_input("what") or "the child", self.attempts)
                self._reset()
                return NodeStatus.FAILURE
        period = self.get_input("warn_period")
        if self.started is not None and period > 0 and now - self.warned_at >= period:
            self.warned_at = now
            LOG.warning("%s: %s has not succeeded %.0f s after its first failure (%d failed attempts); still trying",
                        self.full_path, self.get_input("what") or "the child", now - self.started, self.attempts)
        return NodeStatus.RUNNING

    def _reset(self):
        self.attempts, self.started, self.warned_at = 0, None, None

    def halt(self):
        self._reset()
        super().halt()
