"""RosActionNode: a behavior-tree leaf that is a ROS 2 action client.

In the spirit of BehaviorTree.ROS2's ``RosActionNode``: a subclass names the action
type, fills the goal from its ports (:meth:`set_goal`), and maps the result to a
status (:meth:`on_result`); this base does the talking, without ever blocking:

- ``on_start``: wait (tick by tick) for the server, up to ``wait_for_server_timeout``;
  send the goal asynchronously; return RUNNING.
- ``on_running``: poll the goal future (``server_timeout`` bounds the wait for the
  goal response), then the result future; while waiting, check every
  ``LIVENESS_PERIOD_S`` that the server is still in the ROS graph, so a server
  that dies mid-goal gives FAILURE instead of a node that runs forever; and (GoalWatch,
  robot_tasks/ros/goal_watch.py) that the server which accepted the goal is still the one
  serving it: a server killed and restarted under the same name no longer knows the goal.
- a lost goal response (robot_tasks/ros/goal_by_id.py): halfway through ``server_timeout``
  without an answer, ask the server for the goal's result by the goal's id (and, as a
  control, for an id nobody used); a server that holds our request while it answered the
  control has the goal, and the leaf follows it as if the response had come. Otherwise, at
  ``server_timeout``, the leaf fails with SEND_GOAL_TIMEOUT and cancels the goal by its id.
- ``halt``: cancel the goal (also one whose acceptance is still in flight).
- a lost result: once the goal's status topic says the goal has ended but no result
  arrived within ``RESULT_RETRY_S``, ask for the result again (get_result is
  idempotent: the server keeps the result). Without this, a result request or
  response lost to discovery (a client created on the first tick, whose endpoints
  the server has not matched yet, e.g. Fast DDS drops a response to a reader it has
  not matched within ~100 ms) leaves the leaf RUNNING forever while the tree keeps
  ticking with nothing changing. After ``MAX_RESULT_REQUESTS`` such requests the
  leaf fails with RESULT_LOST. As the status message of a goal can itself arrive
  before the goal response (and is then ignored by rclpy), the result is also asked
  again every ``RESULT_REFRESH_S`` while the status says nothing.
"""
from __future__ import annotations

import enum
import time
import uuid
from typing import Any

from robot_tasks.bt import InputPort, NodeStatus, OutputPort, StatefulActionNode
from robot_tasks.bt.errors import BehaviorTreeError
from robot_tasks.ros.error_codes import code_name
from robot_tasks.ros.goal_by_id import LateAcceptance, cancel_by_id, is_unknown_goal
from robot_tasks.ros.goal_watch import GoalWatch
from robot_tasks.ros.interface_types import import_action_type

LIVENESS_PERIOD_S = 0.2
RESULT_RETRY_S = 1.0      # wall s between result requests once the status says the goal ended
MAX_RESULT_REQUESTS = 5   # result requests after the goal ended before giving up with RESULT_LOST
RESULT_REFRESH_S = 10.0   # wall s between result requests while the status says nothing


class ActionNodeErrorCode(enum.IntEnum):
    """Why an action leaf failed on the client side (names as in BehaviorTree.ROS2)."""

    SERVER_UNREACHABLE = 1   # no server within wait_for_server_timeout, or it vanished (or restarted) mid-goal
    SEND_GOAL_TIMEOUT = 2    # no goal response within server_timeout
    GOAL_REJECTED = 3        # the server rejected the goal
    ABORTED = 4              # the server aborted the goal (see error_message)
    CANCELLED = 5            # the goal was cancelled (by someone other than this leaf's halt)
    INVALID_GOAL = 6         # the ports could not be turned into a goal
    RESULT_ERROR = 7         # the server succeeded but its result reports an error code
    RESULT_LOST = 8          # the goal ended (status topic) but no result request was answered


def action_client_for(ros_node, action_type, action_name: str):
    """One shared ActionClient per (node, type, name), created on first use.

    Sharing matters: a new client has to be discovered by the server (~0.1 s) and
    costs DDS entities; trees are re-created for every run and may hold several
    leaves for the same server.
    """
    from rclpy.action import ActionClient

    cache = ros_node.__dict__.setdefault("_robot_tasks_action_clients", {})
    key = (action_type, action_name)
    client = cache.get(key)
    if client is None:
        client = ActionClient(ros_node, action_type, action_name)
        cache[key] = client
    return client


def pending_cancels(ros_node) -> list:
    """Cancel-request futures sent by the leaves on `ros_node` and not answered yet.

    A process that halts its trees on shutdown spins until these are done (bounded),
    so the cancel requests reach the servers before the DDS participant goes away.
    """
    futures = ros_node.__dict__.setdefault("_robot_tasks_cancel_futures", [])
    futures[:] = [f for f in futures if not f.done()]
    return futures


class RosActionNode(StatefulActionNode):
    """Base class of action-client leaves. Subclasses set ``action_type`` and override
    :meth:`set_goal` (and usually :meth:`on_result`, :meth:`on_feedback`)."""

    # The action class, or its ROS name ("robot_tasks_interfaces/action/MoveToJoints"),
    # imported when the first leaf is built (so tree files validate without interfaces).
    action_type: Any = None
    default_action_name: str = ""    # default of the action_name port
    default_server_timeout_ms: int = 2000
    default_wait_for_server_timeout_ms: int = 2000

    def __init__(self, name: str, config, ros_node):
        super().__init__(name, config)
        if isinstance(type(self).action_type, str):
            type(self).action_type = import_action_type(type(self).action_type)
        self.ros_node = ros_node  # None only when registered for validation (see register_nodes)
        self.last_error = ""
        self._reset_goal_state()

    @classmethod
    def provided_ports(cls):
        """The ports every action leaf has; subclasses add theirs with
        ``super().provided_ports() + [...]``."""
        return [
            InputPort("action_name", str, default=cls.default_action_name,
                      description="action server name (relative names resolve in the executor's namespace)"),
            InputPort("server_timeout", int, default=cls.default_server_timeout_ms,
                      description="ms to wait for the goal to be accepted or rejected"),
            InputPort("wait_for_server_timeout", int, default=cls.default_wait_for_server_timeout_ms,
                      description="ms to wait for the action server to be available"),
            OutputPort("error_code", str, description="client-side failure: an ActionNodeErrorCode name"),
            OutputPort("error_message", str, description="why the goal failed (server message included)"),
        ]

    # ---- to override -------------------------------------------------------------------
    def set_goal(self, goal) -> bool | None:
        """Fill `goal` (a fresh ``action_type.Goal()``) from the ports.

        Return False or raise ValueError/PortError to fail with INVALID_GOAL.
        """
        return True

    def on_feedback(self, feedback) -> NodeStatus:
        """Called on the tick after each feedback message; return RUNNING to go on
        (or SUCCESS/FAILURE to stop early: the goal is then cancelled)."""
        return NodeStatus.RUNNING

    def on_result(self, result, status: int) -> NodeStatus:
        """Map a SUCCEEDED result to a status (default SUCCESS)."""
        return NodeStatus.SUCCESS

    def on_failure(self, error: ActionNodeErrorCode, message: str) -> NodeStatus:
        """Called on every client-side failure; the return value is the node's status."""
        return NodeStatus.FAILURE

    # ---- the state machine -------------------------------------------------------------
    def _reset_goal_state(self) -> None:
        self._client = None
        self._phase = "idle"          # idle | waiting_server | sending | running | done
        self._deadline = 0.0
        self._goal_future = None
        self._goal_id = None          # the id this leaf gave its goal (unique_identifier_msgs/UUID)
        self._goal_handle = None
        self._late = None             # LateAcceptance: was the goal accepted though no response came?
        self._watch = None            # GoalWatch of the accepted goal
        self._result_future = None
        self._result_futures = []    # every result request sent for this goal (any may answer)
        self._ended_seen_at = None   # when the status topic first said the goal ended
        self._requests_after_end = 0
        self._next_result_request = 0.0
        self._feedback = None
        self._next_liveness_check = 0.0
        self._generation = getattr(self, "_generation", 0) + 1  # tells this goal's feedback apart

    def on_start(self) -> NodeStatus:
        if self.ros_node is None:
            raise BehaviorTreeError(f"{self.full_path}: {type(self).__name__} was registered without an "
                                    f"rclpy node; use register_ros_nodes(factory, ros_node)")
        self._reset_goal_state()
        self.last_error = ""
        try:
            action_name = self.get_input("action_name")
            self._server_timeout = self.get_input("server_timeout") / 1000.0
            wait_timeout = self.get_input("wait_for_server_timeout") / 1000.0
            if not action_name:
                raise ValueError("the port action_name is empty")
        except (BehaviorTreeError, ValueError, TypeError) as exc:
            return self._fail(ActionNodeErrorCode.INVALID_GOAL, str(exc))
        self._action_name = action_name
        self._client = action_client_for(self.ros_node, self.action_type, action_name)
        self._phase = "waiting_server"
        self._deadline = time.monotonic() + max(0.0, wait_timeout)
        return self._step()

    def on_running(self) -> NodeStatus:
        return self._step()

    def _step(self) -> NodeStatus:
        now = time.monotonic()
        if self._phase == "waiting_server":
            if not self._client.server_is_ready():
                if now >= self._deadline:
                    return self._fail(ActionNodeErrorCode.SERVER_UNREACHABLE,
                                      f"action server '{self._resolved_name()}' not available after "
                                      f"{self.get_input('wait_for_server_timeout')} ms")
                return NodeStatus.RUNNING
            return self._send_goal(now)
        if self._phase == "sending":
            return self._check_goal_response(now)
        if self._phase == "running":
            return self._check_result(now)
        return NodeStatus.FAILURE  # "done": should not be ticked again without a restart

    def _send_goal(self, now: float) -> NodeStatus:
        from unique_identifier_msgs.msg import UUID

        goal = self.action_type.Goal()
        try:
            ok = self.set_goal(goal)
        except (BehaviorTreeError, ValueError, TypeError, AssertionError) as exc:
            # generated messages raise AssertionError/TypeError on a badly typed field
            return self._fail(ActionNodeErrorCode.INVALID_GOAL, str(exc))
        if ok is False:
            return self._fail(ActionNodeErrorCode.INVALID_GOAL, "set_goal() refused the ports")
        generation = self._generation
        # our own goal id: a goal whose response never comes can still be cancelled by it
        self._goal_id = UUID(uuid=list(uuid.uuid4().bytes))
        self._goal_future = self._client.send_goal_async(
            goal, feedback_callback=lambda message: self._store_feedback(message, generation),
            goal_uuid=self._goal_id)
        self._phase = "sending"
        self._deadline = now + self._server_timeout
        self._late = LateAcceptance(self._client, self.action_type, self._goal_id, sent_at=now,
                                    probe_after_s=self._server_timeout / 2)
        return NodeStatus.RUNNING

    def _store_feedback(self, feedback_message, generation: int) -> None:
        if generation == self._generation and self._phase in ("sending", "running"):
            self._feedback = feedback_message.feedback

    def _check_goal_response(self, now: float) -> NodeStatus:
        future = self._goal_future
        if not future.done():
            adopted = self._late.check(now)
            if adopted is not None:
                return self._follow_unanswered_goal(*adopted, now=now)
            if now >= self._deadline:
                self._goal_future = None
                future.add_done_callback(_cancel_late_goal)  # if it arrives after all, cancel it
                # the server may have accepted it and only the response was lost (Fast DDS drops
                # a response to a client it has not matched yet): cancel it by its id, so no goal
                # the tree gave up on keeps the robot moving
                pending_cancels(self.ros_node).append(
                    cancel_by_id(self._client, self.action_type, self._goal_id))
                return self._fail(ActionNodeErrorCode.SEND_GOAL_TIMEOUT,
                                  f"no goal response from '{self._resolved_name()}' within "
                                  f"{self._server_timeout * 1000:.0f} ms")
            return NodeStatus.RUNNING
        handle = future.result() if future.exception() is None else None
        if handle is None or not handle.accepted:
            return self._fail(ActionNodeErrorCode.GOAL_REJECTED,
                              f"'{self._resolved_name()}' rejected the goal")
        return self._follow(handle, handle.get_result_async(), now)

    def _follow_unanswered_goal(self, handle, result_future, now: float) -> NodeStatus:
        """The goal response was lost, but the server has the goal: follow it by its id."""
        self._goal_future = None     # a response that still comes is the same goal: nothing to do
        self.ros_node.get_logger().warning(
            f"[{self.full_path}] no goal response from '{self._resolved_name()}', but the server holds "
            f"the goal's result request, so it has the goal: following it")
        return self._follow(handle, result_future, now)

    def _follow(self, handle, result_future, now: float) -> NodeStatus:
        self._goal_handle = handle
        self._watch = GoalWatch(self.ros_node, self._action_name, handle, now=now)
        self._result_future = result_future
        self._result_futures = [self._result_future]
        self._next_result_request = now + RESULT_REFRESH_S
        self._phase = "running"
        self._next_liveness_check = now + LIVENESS_PERIOD_S
        return self._check_result(now)

    def _check_result(self, now: float) -> NodeStatus:
        from action_msgs.msg import GoalStatus

        future = next((f for f in self._result_futures if f.done()), None)
        if future is None:
            future = self._result_future
            ended = (GoalStatus.STATUS_SUCCEEDED, GoalStatus.STATUS_CANCELED, GoalStatus.STATUS_ABORTED)
            if self._ended_seen_at is None and self._goal_handle.status in ended:
                self._ended_seen_at = now  # the result normally follows within milliseconds
                self._next_result_request = now + RESULT_RETRY_S
            if now >= self._next_result_request:
                lost = self._ask_result_again(now)
                if lost is not None:
                    return lost
        if future.done():
            self._result_future = future
            self._phase = "done"
            response = future.result()
            status = response.status
            if is_unknown_goal(future):
                return self._fail(ActionNodeErrorCode.SERVER_UNREACHABLE,
                                  f"'{self._resolved_name()}' no longer knows this goal")
            if status == GoalStatus.STATUS_SUCCEEDED:
                return self.on_result(response.result, status)
            text = getattr(response.result, "message", "") or ""
            if isinstance(getattr(response.result, "error_code", None), int):   # our actions name the outcome
                code = response.result.error_code
                text = f"error_code {code} {code_name(type(response.result), code)}: {text}"
            if status == GoalStatus.STATUS_CANCELED:
                return self._fail(ActionNodeErrorCode.CANCELLED, f"goal cancelled by the server. {text}")
            return self._fail(ActionNodeErrorCode.ABORTED, f"'{self._resolved_name()}' aborted the goal"
                              + (f": {text}" if text else ""))
        if self._feedback is not None:
            feedback, self._feedback = self._feedback, None
            status = self.on_feedback(feedback)
            if status is not NodeStatus.RUNNING:
                self._cancel_goal()
                self._phase = "done"
                return status
        gone = self._watch.lost(now)
        if gone is not None:
            return self._fail(ActionNodeErrorCode.SERVER_UNREACHABLE, f"'{self._resolved_name()}': {gone}")
        if now >= self._next_liveness_check:
            self._next_liveness_check = now + LIVENESS_PERIOD_S
            if not self._client.server_is_ready():
                self._phase = "done"
                return self._fail(ActionNodeErrorCode.SERVER_UNREACHABLE,
                                  f"action server '{self._resolved_name()}' disappeared while the goal "
                                  f"was running")
        return NodeStatus.RUNNING

    def _ask_result_again(self, now: float) -> NodeStatus | None:
        """Request the result again: RESULT_RETRY_S after the status said the goal ended
        (failing with RESULT_LOST after MAX_RESULT_REQUESTS), else every RESULT_REFRESH_S."""
        if self._ended_seen_at is None:
            self._next_result_request = now + RESULT_REFRESH_S
        else:
            if self._requests_after_end >= MAX_RESULT_REQUESTS:
                self._phase = "done"
                return self._fail(ActionNodeErrorCode.RESULT_LOST,
                                  f"'{self._resolved_name()}' ended the goal (status {self._goal_handle.status}) "
                                  f"but none of {len(self._result_futures)} result requests was answered")
            self._requests_after_end += 1
            self._next_result_request = now + RESULT_RETRY_S
            self.ros_node.get_logger().warning(
                f"[{self.full_path}] '{self._resolved_name()}' ended the goal (status topic) but its result "
                f"has not arrived; asking again (request {len(self._result_futures) + 1})")
        self._result_futures.append(self._goal_handle.get_result_async())
        return None

    def on_halted(self) -> None:
        self._cancel_goal()
        self._phase = "done"

    def _cancel_goal(self) -> None:
        if self._goal_handle is not None:
            if self._result_future is not None and not self._result_future.done():
                pending_cancels(self.ros_node).append(self._goal_handle.cancel_goal_async())
        elif self._goal_future is not None:
            # the goal response may have arrived without a tick having seen it yet
            pending = pending_cancels(self.ros_node)
            if self._goal_future.done():
                _cancel_late_goal(self._goal_future, pending)
            else:
                self._goal_future.add_done_callback(lambda future: _cancel_late_goal(future, pending))
        self._goal_future = None

    # ---- failures ----------------------------------------------------------------------
    def _fail(self, error: ActionNodeErrorCode, message: str) -> NodeStatus:
        self._phase = "done"
        self.last_error = f"{error.name}: {message}"  # the executor quotes it in its result message
        self.ros_node.get_logger().warning(f"[{self.full_path}] {error.name}: {message}")
        for port, value in (("error_code", error.name), ("error_message", message)):
            if port in self.config.output_ports:
                self.set_output(port, value)
        status = self.on_failure(error, message)
        return status if status is not None else NodeStatus.FAILURE

    def fail_with_result(self, message: str) -> NodeStatus:
        """For on_result(): the server SUCCEEDED but its result says it did not work."""
        return self._fail(ActionNodeErrorCode.RESULT_ERROR, message)

    def fail_unless_succeeded(self, result) -> NodeStatus | None:
        """For on_result() of our actions, whose results carry `error_code` and `message`:
        FAILURE naming the server's outcome (e.g. "error_code 3 UNREACHABLE: ...") unless it
        is SUCCESS; None when it is."""
        if result.error_code == result.SUCCESS:
            return None
        name = code_name(type(result), result.error_code)
        return self.fail_with_result(f"error_code {result.error_code} {name}: {result.message}")

    def _resolved_name(self) -> str:
        name = self._action_name
        if name.startswith("/"):
            return name
        ns = self.ros_node.get_namespace().rstrip("/")
        return f"{ns}/{name}"


def _cancel_late_goal(future, pending: list | None = None) -> None:
    """Done-callback: a goal accepted after its leaf gave up or was halted is cancelled."""
    if future.cancelled() or future.exception() is not None:
        return
    handle = future.result()
    if handle is not None and handle.accepted:
        cancel = handle.cancel_goal_async()
        if pending is not None:
            pending.append(cancel)
