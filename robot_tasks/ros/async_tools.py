"""Waiting inside async action callbacks without blocking a SingleThreadedExecutor.

An `async def` execute callback that awaits these keeps the executor free, so cancel
requests, new goals and joint_states keep being handled while a goal runs (a blocking
execute callback would stall them all; see shared/ros/README.md). Sleeps use the
steady wall clock on purpose: with use_sim_time a sim-time timer never fires when the
sim dies, and the server must notice that instead of hanging.
"""
from __future__ import annotations

import concurrent.futures

from rclpy.clock import Clock, ClockType
from rclpy.task import Future

_STEADY = Clock(clock_type=ClockType.STEADY_TIME)


async def sleep(node, seconds: float) -> None:
    """Suspend the calling coroutine for `seconds` of wall time."""
    done = Future()

    def fire():
        timer.cancel()
        if not done.done():
            done.set_result(True)

    timer = node.create_timer(max(seconds, 1e-4), fire, clock=_STEADY)
    try:
        await done
    finally:
        node.destroy_timer(timer)


async def wait_for_worker(node, job: concurrent.futures.Future, poll_s: float = 0.01,
                          abandon=lambda: False):
    """Poll a thread-pool future until it is done; return its result (re-raising its error).

    Returns None early if `abandon()` turns true (e.g. the goal was cancelled): the job
    keeps running in its thread, but nobody waits for it.
    """
    while not job.done():
        if abandon():
            return None
        await sleep(node, poll_s)
    return job.result()
