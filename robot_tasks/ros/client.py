"""RosClient: how a program that is not a node talks to the ROS graph.

The CLI commands (`execute`, `send-goal`, `watch`), the demo runner, the benches and the
tests all need the same thing: a node of their own to call actions and read topics,
without touching rclpy's global context (a test process opens and closes many; a CLI
must not share Ctrl-C handling with rclpy). A RosClient is

- a private rclpy `Context`, initialised with rclpy's signal handlers off, so Ctrl-C
  stays a KeyboardInterrupt the caller can answer (cancel its goal, then exit);
- one node in it and a `SingleThreadedExecutor` (the fast one in rclpy 9.1.2);
- spun either by the caller (`spin_until(future, deadline)`: a command-line program that
  waits for one thing at a time) or by a background thread (`start_thread()`: a demo or a
  test whose callbacks fill state while the main thread waits on it);
- closed in the order that leaves nothing behind (shared/ros/README.md): executor down,
  spin thread joined, node destroyed, context shut down.

DDS is set up first: loopback, unless the deployment opted out (ROBOT_TASKS_DDS=system,
robot_tasks.ros.dds.configure_dds). A caller that set up its own loopback environment
(the test harness) passes `configure_dds=False`.

    with RosClient("send_goal") as ros:
        client = ActionClient(ros.node, MoveToPose, "move_to_pose")
        if not ros.wait_for(client.server_is_ready, timeout=5.0): ...
        sent = client.send_goal_async(goal)
        ros.spin_until(sent, deadline=time.monotonic() + 10.0)
"""
from __future__ import annotations

import threading
import time
import uuid
from dataclasses import dataclass
from typing import Callable

from robot_tasks.ros.goal_by_id import LateAcceptance
from robot_tasks.ros.goal_watch import GoalWatch

JOIN_TIMEOUT_S = 10.0
SERVER_LOST_S = 2.0   # s the server may be missing from the graph before a goal counts as lost


def _done_future(value):
    from rclpy.task import Future

    future = Future()
    future.set_result(value)
    return future


@dataclass
class GoalOutcome:
    """How `RosClient.run_goal` ended: `kind` is one of
    "result" (`response` holds the status and the result), "rejected", "timeout",
    "interrupted" (Ctrl-C: the goal was cancelled), "server_lost" (the server left the
    graph while the goal ran); `note` says what happened to the goal, in words."""

    kind: str
    response: object = None
    handle: object = None
    note: str = ""


class RosClient:
    """A private context + node + executor; see the module docstring."""

    def __init__(self, name: str, *, configure_dds: bool = True, domain_id: int | None = None):
        if configure_dds:
            from robot_tasks.ros.dds import configure_dds as set_up_dds

            set_up_dds()                        # before rclpy.init(): loopback unless opted out
        import rclpy
        from rclpy.context import Context
        from rclpy.executors import SingleThreadedExecutor
        from rclpy.signals import SignalHandlerOptions

        self.context = Context()
        rclpy.init(context=self.context, domain_id=domain_id,
                   signal_handler_options=SignalHandlerOptions.NO)
        self.node = rclpy.create_node(name, context=self.context)
        self.executor = SingleThreadedExecutor(context=self.context)
        self.executor.add_node(self.node)
        self._thread: threading.Thread | None = None
        self._closed = False

    # -- spinning -----------------------------------------------------------------------
    def start_thread(self) -> "RosClient":
        """Spin in a daemon thread from now on (callbacks run there)."""
        self._thread = threading.Thread(target=self._spin, name=f"spin-{self.node.get_name()}", daemon=True)
        self._thread.start()
        return self

    def _spin(self) -> None:
        from rclpy.executors import ExternalShutdownException

        try:
            self.executor.spin()
        except ExternalShutdownException:
            pass
        except Exception:  # noqa: BLE001
            # rclpy 9.x: executor.shutdown() from close() can tear the executor's guard
            # condition down under a callback that is still running (AttributeError on it,
            # or InvalidHandle "destruction was requested"). That is the close we asked for;
            # at any other time the error is real.
            if not self._closed:
                raise

    def spin_until(self, future, deadline: float | None = None) -> bool:
        """Wait until `future` is done or the monotonic `deadline` passes (True if done).
        Spins on this thread, unless a spin thread runs (then it only waits)."""
        while not future.done():
            left = None if deadline is None else deadline - time.monotonic()
            if left is not None and left <= 0:
                return False
            step = 0.1 if left is None else min(0.1, left)
            if self._thread is None:
                self.executor.spin_once(timeout_sec=step)
            else:
                time.sleep(min(step, 0.01))
        return True

    def wait_for(self, predicate: Callable[[], bool], timeout: float, poll_s: float = 0.02) -> bool:
        """Spin (or wait) until `predicate()` is true, at most `timeout` s (True if it became true)."""
        deadline = time.monotonic() + timeout
        while not predicate():
            if time.monotonic() >= deadline:
                return False
            if self._thread is None:
                self.executor.spin_once(timeout_sec=poll_s)
            else:
                time.sleep(poll_s)
        return True

    # -- goals ----------------------------------------------------------------------------
    def cancel_when_accepted(self, sent, wait_s: float = 2.0) -> str:
        """Cancel the goal of `sent` (a send_goal_async future), first waiting up to `wait_s`
        for it to be accepted, so a goal still in flight is cancelled too. Returns what
        happened, in words, for the caller to print."""
        deadline = time.monotonic() + wait_s
        if not self.spin_until(sent, deadline):
            return "the goal was never acknowledged by the server; nothing to cancel"
        handle = sent.result()
        if not handle.accepted:
            return "the goal was rejected; nothing to cancel"
        cancel = handle.cancel_goal_async()
        if not self.spin_until(cancel, deadline + wait_s):
            return f"no answer to the cancel request within {wait_s:g} s"
        return ("goal cancel requested: accepted" if cancel.result().goals_canceling
                else "goal cancel requested: refused (it may have finished)")

    def run_goal(self, client, goal, *, feedback: Callable | None = None, timeout: float | None = None,
                 on_accepted: Callable | None = None, lost_after_s: float = SERVER_LOST_S) -> GoalOutcome:
        """Send `goal` with action client `client` and follow it to its end (on this thread).

        Every way out leaves nothing running on the server: a timeout or a Ctrl-C, also in
        the window between sending and acceptance, cancels the goal once it is accepted;
        a server that leaves the graph for `lost_after_s` while the goal runs, or one that
        no longer knows the goal (killed and restarted: robot_tasks/ros/goal_watch.py), ends
        the wait ("server_lost") instead of waiting forever; a goal whose response was lost
        but which the server has (robot_tasks/ros/goal_by_id.py) is followed all the same."""
        from unique_identifier_msgs.msg import UUID

        deadline = None if timeout is None else time.monotonic() + timeout
        goal_id = UUID(uuid=list(uuid.uuid4().bytes))    # ours: the goal can be asked after by its id
        sent = client.send_goal_async(goal, feedback_callback=feedback, goal_uuid=goal_id)
        try:
            # a lost goal response (robot_tasks/ros/goal_by_id.py): the server may have the goal anyway
            late = LateAcceptance(client, client._action_type, goal_id, sent_at=time.monotonic())
            adopted = None
            while not sent.done() and adopted is None:
                if deadline is not None and time.monotonic() >= deadline:
                    note = self.cancel_when_accepted(sent)
                    handle = sent.result() if sent.done() and sent.exception() is None else None
                    return GoalOutcome("timeout", handle=handle, note=note)
                step = time.monotonic() + 0.1
                self.spin_until(sent, step if deadline is None else min(step, deadline))
                adopted = None if sent.done() else late.check(time.monotonic())
            if adopted is not None:
                handle, result = adopted
                sent = _done_future(handle)          # what a cancel on the way out waits for
            else:
                handle = sent.result()
                if not handle.accepted:
                    return GoalOutcome("rejected", handle=handle)
                result = handle.get_result_async()
            if on_accepted is not None:
                on_accepted(handle)
            watch = GoalWatch(self.node, client._action_name, handle, now=time.monotonic())
            missing_since = None
            while not result.done():
                if deadline is not None and time.monotonic() >= deadline:
                    return GoalOutcome("timeout", handle=handle, note=self.cancel_when_accepted(sent))
                self.spin_until(result, time.monotonic() + 0.2)
                gone = None if result.done() else watch.lost(time.monotonic())
                if gone is not None:
                    return GoalOutcome("server_lost", handle=handle, note=f"{gone}; the goal's end is unknown")
                if client.server_is_ready():
                    missing_since = None
                elif missing_since is None:
                    missing_since = time.monotonic()
                elif time.monotonic() - missing_since >= lost_after_s and not result.done():
                    return GoalOutcome("server_lost", handle=handle,
                                       note=f"the action server left the graph {lost_after_s:g} s ago; "
                                            f"the goal's end is unknown")
            return GoalOutcome("result", response=result.result(), handle=handle)
        except KeyboardInterrupt:
            note = self.cancel_when_accepted(sent)
            handle = sent.result() if sent.done() and sent.exception() is None else None
            return GoalOutcome("interrupted", handle=handle, note=note)

    # -- closing --------------------------------------------------------------------------
    def close(self) -> None:
        """Executor down, spin thread joined, node destroyed, context shut down; twice is fine."""
        import rclpy

        if self._closed:
            return
        self._closed = True
        self.executor.shutdown()
        if self._thread is not None:
            self._thread.join(timeout=JOIN_TIMEOUT_S)
            if self._thread.is_alive():
                raise RuntimeError(f"the spin thread of {self.node.get_name()} did not stop "
                                   f"within {JOIN_TIMEOUT_S:g} s")
        self.node.destroy_node()
        rclpy.try_shutdown(context=self.context)

    def __enter__(self) -> "RosClient":
        return self

    def __exit__(self, *exc) -> None:
        self.close()
