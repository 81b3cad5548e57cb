"""ExecuteTreeServer: the ExecuteTree action, the tick timer, tree_status and get_loaded_trees.

Made for a SingleThreadedExecutor (the fast one in rclpy 9.1.2), where nothing may
block:
- the action's execute callback is a coroutine: it builds the tree, registers the
  run, then ``await``s a Future that the tick loop completes; meanwhile the
  executor keeps serving cancel requests, feedback and the leaves' futures;
- a timer ticks the tree at ``tick_frequency`` on the node's clock (so under
  ``use_sim_time`` it follows /clock); leaves are non-blocking, so a tick is short;
- the timer runs only while a tree runs, and /clock is subscribed only then (plus a
  linger: robot_tasks/ros/lazy_subscriptions.py);
- a watchdog on the steady wall clock covers a node clock that stops: when /clock stalls
  (or never came) for ``STALL_S`` (the sim died, hangs or is unreachable), it ticks the tree every
  ``STALL_S`` wall s, so leaves still notice dead servers and time out, and a cancel is
  served at once whatever the clock does.

Goal policy: every goal is accepted, then checked; an unknown tree, a bad payload
or a broken XML ends it at once (aborted, with the matching error code and a
message). A newer goal *preempts* the running one: the old tree is halted and its
goal aborted with PREEMPTED before the new tree's first tick (the behaviour of
BehaviorTree.ROS2's TreeExecutionServer). Cancel halts the tree (ROS leaves cancel
their goals) and ends the goal CANCELED with error code CANCELLED.

Every tick with status changes publishes a TreeStatus; a run's first TreeStatus
lists every node (previous == status) so viewers can draw the tree.
"""
from __future__ import annotations

import time
from dataclasses import dataclass

from rclpy.action import ActionServer, CancelResponse, GoalResponse
from rclpy.clock import Clock, ClockType
from rclpy.qos import QoSProfile, ReliabilityPolicy
from rclpy.task import Future

from robot_tasks.bt import NodeStatus
from robot_tasks.ros.async_tools import sleep
from robot_tasks.ros.error_codes import code_name
from robot_tasks.ros.goal_outcome import end_goal
from robot_tasks.ros.lazy_subscriptions import ServerStreams
from robot_tasks.runtime.catalog import TreeCatalog, parse_payload
from robot_tasks.runtime.errors import InvalidPayloadError, NodeTickError, TreeLoadError, UnknownTreeError
from robot_tasks.runtime.monitors import RunInfo, RunMonitors
from robot_tasks.runtime.run import FINISHED, StatusChange, TreeRun
from robot_tasks_interfaces.action import ExecuteTree
from robot_tasks_interfaces.msg import TreeNodeStatus, TreeStatus
from robot_tasks_interfaces.srv import GetLoadedTrees

Result = ExecuteTree.Result
STALL_S = 0.5   # wall s without a tick before the watchdog ticks
CLOCK_WAIT_S = 2.0   # wall s a new run waits for /clock to come back after an idle spell


@dataclass
class ActiveGoal:
    handle: object
    run: TreeRun
    done: Future
    next_feedback: float = 0.0
    last_failure: StatusChange | None = None  # the last leaf that returned FAILURE


class ExecuteTreeServer:
    """Runs the ExecuteTree action on `node` with trees from `catalog`."""

    def __init__(self, node, catalog: TreeCatalog, action_name: str = "execute_tree",
                 tick_frequency: float = 100.0, feedback_rate: float = 10.0,
                 status_topic: str = "tree_status", loaded_trees_service: str = "get_loaded_trees",
                 monitors: RunMonitors | None = None):
        if not tick_frequency > 0:
            raise ValueError(f"tick_frequency must be > 0 Hz, got {tick_frequency}")
        self.node = node
        self.catalog = catalog
        self.log = node.get_logger()
        self.feedback_period = 1.0 / feedback_rate if feedback_rate > 0 else 0.0
        self.active: ActiveGoal | None = None
        self.monitors = monitors or RunMonitors([])   # Groot2 / .btlog of the running tree
        self.status_pub = node.create_publisher(
            TreeStatus, status_topic, QoSProfile(depth=100, reliability=ReliabilityPolicy.RELIABLE))
        self.timer = node.create_timer(1.0 / tick_frequency, self._on_tick, autostart=False)
        self.last_tick_wall = 0.0
        self.watchdog = node.create_timer(STALL_S / 2, self._on_watchdog, autostart=False,
                                          clock=Clock(clock_type=ClockType.STEADY_TIME))
        self.action_server = ActionServer(
            node, ExecuteTree, action_name, execute_callback=self._execute,
            goal_callback=lambda _goal: GoalResponse.ACCEPT,
            cancel_callback=lambda _handle: CancelResponse.ACCEPT)
        self.service = node.create_service(GetLoadedTrees, loaded_trees_service, self._list_trees)
        # /clock only while a tree runs (robot_tasks/ros/lazy_subscriptions.py): an idle
        # executor would spend ~7 % of a core on it
        self.streams = ServerStreams(node, lambda: [], needed=lambda: self.active is not None)

    # ---- service -------------------------------------------------------------------------
    def _list_trees(self, _request, response):
        ids = self.catalog.tree_ids()
        response.tree_ids = ids
        response.files = [self.catalog.files[i] for i in ids]
        return response

    # ---- action --------------------------------------------------------------------------
    async def _execute(self, handle):
        goal = handle.request
        try:
            payload = parse_payload(goal.payload)
            tree, tree_id = self.catalog.create(goal.target_tree, payload)
        except (UnknownTreeError, InvalidPayloadError, TreeLoadError) as exc:
            code = {UnknownTreeError: Result.UNKNOWN_TREE, InvalidPayloadError: Result.INVALID_PAYLOAD,
                    TreeLoadError: Result.TREE_LOAD_ERROR}[type(exc)]
            self.log.error(f"goal '{goal.target_tree}' rejected: {exc}")
            handle.abort()
            return Result(node_status=Result.STATUS_IDLE, return_message=str(exc), error_code=code)
        except Exception as exc:  # a node constructor or plugin bug: report, keep serving
            self.log.error(f"goal '{goal.target_tree}': creating the tree failed: {exc!r}")
            handle.abort()
            return Result(node_status=Result.STATUS_IDLE, error_code=Result.INTERNAL_ERROR,
                          return_message=f"creating the tree failed: {type(exc).__name__}: {exc}")

        await self._fresh_clock(handle)
        if self.active is not None:
            self._finish(self.active, Result.PREEMPTED, NodeStatus.IDLE,
                         f"preempted by a newer goal for '{goal.target_tree}'; the tree was halted")
        active = ActiveGoal(handle, TreeRun(tree, tree_id), Future())
        self.active = active
        tree_file, subtree_files = self.catalog.sources(goal.target_tree, tree)
        self.monitors.open(tree, tree_id, RunInfo(goal.target_tree, tree_file, subtree_files, payload))
        self.log.info(f"running tree '{tree_id}'")
        self._publish_status(active, active.run.snapshot())
        self.timer.reset()
        self.watchdog.reset()
        self._on_tick()  # the first tick now, not one period later
        result = await active.done
        end_goal(handle, code_name(Result, result.error_code))
        return result

    async def _fresh_clock(self, handle) -> None:
        """After an idle spell /clock is subscribed again and the node clock holds a stale
        value until its first message: leaves that start timers from it would see the
        whole idle spell pass at once. Wait (bounded: a sim that is down leaves the run to
        the watchdog, as before) until the clock has moved."""
        self.streams.hold()
        deadline = time.monotonic() + CLOCK_WAIT_S
        while not self.streams.clock_fresh() and time.monotonic() < deadline and not handle.is_cancel_requested:
            await sleep(self.node, 0.005)

    def _on_watchdog(self) -> None:
        """Steady-clock backstop of the tick timer (see the module docstring)."""
        active = self.active
        if active is None:
            self.watchdog.cancel()
            return
        # also when /clock never came at all (the sim unreachable since before this run):
        # the leaves must still tick to notice it and fail
        if active.handle.is_cancel_requested or time.monotonic() - self.last_tick_wall >= STALL_S:
            self._on_tick()

    def _on_tick(self) -> None:
        self.last_tick_wall = time.monotonic()
        active = self.active
        if active is None:
            self.timer.cancel()
            return
        if active.handle.is_cancel_requested:
            self._finish(active, Result.CANCELLED, NodeStatus.IDLE, "cancelled; the tree was halted")
            return
        run = active.run
        # the tick's changes are stamped with its start: a goal a leaf sends during the tick can
        # reach the sim and be carried out before the clock reads the tick's end
        started = self.node.get_clock().now()
        if self.monitors.ticking:  # a recording: it notes each tick with the node's clock
            self.monitors.begin_tick(run.tick_count + 1, started.nanoseconds * 1e-9)
        try:
            status = run.tick()
        except NodeTickError as exc:
            self.log.error(f"tree '{run.tree_id}': {exc}")
            self._finish(active, Result.NODE_EXCEPTION, NodeStatus.FAILURE, str(exc))
            return
        changes = run.take_changes()
        for change in changes:
            if change.status == "FAILURE" and change.uid in run.paths and self._is_leaf(run, change.uid):
                active.last_failure = change
        if changes:
            self._publish_status(active, changes, stamp=started)
        if status in FINISHED:
            if status is NodeStatus.SUCCESS:
                self._finish(active, Result.SUCCESS, status, "")
            else:
                self._finish(active, Result.TREE_FAILED, status, self._failure_text(active, status))
            return
        now = time.monotonic()
        if now >= active.next_feedback:
            active.next_feedback = now + self.feedback_period
            active.handle.publish_feedback(ExecuteTree.Feedback(
                message=run.feedback_text(), tick_count=run.tick_count, running_nodes=run.running_leaves()))

    @staticmethod
    def _is_leaf(run: TreeRun, uid: int) -> bool:
        node = run.tree.nodes[uid - 1]
        return not getattr(node, "children", None) and getattr(node, "child", None) is None

    @staticmethod
    def _failure_text(active: ActiveGoal, status: NodeStatus) -> str:
        if status is NodeStatus.SKIPPED:
            return "the root was skipped (a precondition of the root node)"
        failure = active.last_failure
        if failure is None:
            return "the tree returned FAILURE"
        node = active.run.tree.nodes[failure.uid - 1]
        detail = getattr(node, "last_error", "")
        return f"the tree returned FAILURE; last failed leaf: {failure.path}" + (f" ({detail})" if detail else "")

    def _finish(self, active: ActiveGoal, code: int, root: NodeStatus, message: str) -> None:
        """End a run: halt the tree if needed, publish the last changes, complete the goal."""
        run = active.run
        if root is NodeStatus.IDLE or run.root_status is NodeStatus.RUNNING:
            run.halt()
        run.close()
        self.monitors.close()
        changes = run.take_changes()
        self._publish_status(active, changes, root_status=root)
        if self.active is active:
            self.active = None
            self.timer.cancel()
            self.watchdog.cancel()
        verb = "succeeded" if code == Result.SUCCESS else "ended"
        self.log.info(f"tree '{run.tree_id}' {verb} after {run.tick_count} ticks: {root.name}"
                      + (f" - {message}" if message else ""))
        if not active.done.done():
            active.done.set_result(Result(node_status=root.name, return_message=message, error_code=code,
                                          tick_count=run.tick_count))

    def _publish_status(self, active: ActiveGoal, changes: list[StatusChange],
                        root_status: NodeStatus | None = None, stamp=None) -> None:
        """Publish `changes` on tree_status, stamped `stamp` (the tick's start; default now)."""
        run = active.run
        msg = TreeStatus()
        msg.header.stamp = (stamp or self.node.get_clock().now()).to_msg()
        msg.tree_id = run.tree_id
        msg.tick_count = run.tick_count
        msg.root_status = (root_status or run.root_status).name
        msg.changes = [TreeNodeStatus(uid=c.uid, name=c.name, registration_id=c.registration_id, path=c.path,
                                      previous_status=c.previous, status=c.status) for c in changes]
        self.status_pub.publish(msg)

    def shutdown(self) -> None:
        """Halt a running tree (its leaves cancel their goals) before the node goes away."""
        if self.active is not None:
            self._finish(self.active, Result.CANCELLED, NodeStatus.IDLE, "the executor is shutting down")
        self.timer.cancel()
        self.watchdog.cancel()
