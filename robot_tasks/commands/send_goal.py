"""`robot-tasks send-goal ACTION_NAME ACTION_TYPE 'YAML'`: send one action goal, print the result.

The equivalent of ``ros2 action send_goal`` (the ros2 CLI is not on PyPI):

    robot-tasks send-goal /arm/move_to_pose robot_tasks_interfaces/action/MoveToPose \\
        '{target: {header: {frame_id: world}, pose: {position: {x: 0.4, z: 0.3},
          orientation: {x: 1.0, w: 0.0}}}, motion: 1}' --feedback

stdout is a YAML stream that tools can read with ``yaml.safe_load_all``: one
``feedback:`` document per feedback message (with --feedback), then one document
with ``status`` (SUCCEEDED, ABORTED, CANCELED ...) and ``result``. Progress lines
go to stderr.

Exit codes: 0 the goal SUCCEEDED; 1 it ended otherwise (aborted, canceled,
rejected, or --timeout hit, which cancels it); 2 bad arguments (type or goal);
3 no action server within --server-timeout; 130 interrupted (the goal is cancelled).
"""
from __future__ import annotations

import argparse
import importlib
import os
import sys
import time

EXIT_SUCCEEDED, EXIT_NOT_SUCCEEDED, EXIT_BAD_INPUT, EXIT_NO_SERVER, EXIT_INTERRUPTED = 0, 1, 2, 3, 130
POLL_S = 0.02


class BadInput(Exception):
    """The action type or goal given on the command line is unusable."""


def register(subparsers) -> None:
    parser = subparsers.add_parser(
        "send-goal",
        help="send a goal to a ROS 2 action server and print feedback and result",
        description=__doc__.split("\n\n", 1)[1],
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("action_name", help="action name, e.g. /arm/move_to_pose")
    parser.add_argument("action_type", help="e.g. robot_tasks_interfaces/action/MoveToPose")
    parser.add_argument("goal", nargs="?", default="",
                        help="goal fields as a YAML mapping (default: all fields at their defaults)")
    parser.add_argument("-f", "--feedback", action="store_true", help="print feedback messages")
    parser.add_argument("-t", "--timeout", type=float, default=None, metavar="S",
                        help="cancel the goal and exit 1 if no result after S seconds (default: wait)")
    parser.add_argument("--server-timeout", type=float, default=5.0, metavar="S",
                        help="wait this long for the action server to appear (default: 5)")
    parser.set_defaults(func=run)


def import_action_type(text: str):
    """`pkg/action/Name` or `pkg/Name` -> the action class (e.g. MoveToPose)."""
    parts = text.strip("/").split("/")
    if len(parts) == 2:
        parts = [parts[0], "action", parts[1]]
    if len(parts) != 3 or parts[1] != "action" or not all(parts):
        raise BadInput(f"action type '{text}' is not of the form package/action/Name")
    package, _, name = parts
    try:
        module = importlib.import_module(f"{package}.action")
    except ImportError as exc:
        raise BadInput(f"cannot import action type '{text}': {exc}") from exc
    action = getattr(module, name, None)
    if action is None or not all(hasattr(action, part) for part in ("Goal", "Result", "Feedback")):
        raise BadInput(f"'{package}.action' has no action named '{name}'")
    return action


def _emit(document: dict) -> None:
    import yaml

    sys.stdout.write("---\n" + yaml.safe_dump(document, sort_keys=False, default_flow_style=False,
                                               allow_unicode=True))
    sys.stdout.flush()


def _note(text: str) -> None:
    print(text, file=sys.stderr, flush=True)


def run(args) -> int:
    from robot_tasks.ros.yaml_message import MessageFillError, message_from_yaml

    try:
        action = import_action_type(args.action_type)
        goal = message_from_yaml(action.Goal, args.goal, "goal")
    except (BadInput, MessageFillError) as exc:
        _note(f"error: {exc}")
        return EXIT_BAD_INPUT
    for flag in ("timeout", "server_timeout"):
        value = getattr(args, flag)
        if value is not None and not value > 0:
            _note(f"error: --{flag.replace('_', '-')} must be > 0, got {value}")
            return EXIT_BAD_INPUT
    return GoalSender(args.action_name, action).send(goal, args.feedback, args.timeout,
                                                     args.server_timeout)


class GoalSender:
    """One rclpy context + node + action client, spun on the calling thread."""

    def __init__(self, action_name: str, action_type):
        from robot_tasks.ros.dds import configure_loopback_dds

        configure_loopback_dds()  # before rclpy.init(): DDS stays on loopback
        import rclpy
        from rclpy.action import ActionClient
        from rclpy.context import Context
        from rclpy.executors import SingleThreadedExecutor
        from rclpy.signals import SignalHandlerOptions

        self.action_name = action_name
        self.context = Context()
        # Ctrl-C stays a KeyboardInterrupt, so the goal can be cancelled before exiting
        rclpy.init(context=self.context, signal_handler_options=SignalHandlerOptions.NO)
        self.node = rclpy.create_node(f"send_goal_{os.getpid()}", context=self.context)
        self.executor = SingleThreadedExecutor(context=self.context)
        self.executor.add_node(self.node)
        self.client = ActionClient(self.node, action_type, action_name)

    def close(self) -> None:
        import rclpy

        self.executor.shutdown()
        self.client.destroy()
        self.node.destroy_node()
        rclpy.try_shutdown(context=self.context)

    def _spin_until(self, future, deadline: float | None) -> bool:
        while not future.done():
            left = None if deadline is None else deadline - time.monotonic()
            if left is not None and left <= 0:
                return False
            self.executor.spin_once(timeout_sec=0.1 if left is None else min(0.1, left))
        return True

    def send(self, goal, show_feedback: bool, timeout: float | None, server_timeout: float) -> int:
        from robot_tasks.ros.yaml_message import message_to_dict

        try:
            _note(f"waiting for action server '{self.action_name}' ...")
            deadline = time.monotonic() + server_timeout
            while not self.client.server_is_ready():
                if time.monotonic() >= deadline:
                    _note(f"error: no action server '{self.action_name}' after {server_timeout:g} s "
                          f"(ROS_DOMAIN_ID={os.environ.get('ROS_DOMAIN_ID', '0')})")
                    return EXIT_NO_SERVER
                time.sleep(POLL_S)

            def on_feedback(msg):
                if show_feedback:
                    _emit({"feedback": message_to_dict(msg.feedback, max_items=32)})

            started = time.monotonic()
            result_deadline = None if timeout is None else started + timeout
            sent = self.client.send_goal_async(goal, feedback_callback=on_feedback)
            try:
                if not self._spin_until(sent, result_deadline):
                    _note(f"timed out after {timeout:g} s waiting for the goal to be accepted")
                    self._cancel_when_accepted(sent)
                    return EXIT_NOT_SUCCEEDED
                handle = sent.result()
                if not handle.accepted:
                    _note("goal rejected")
                    _emit({"status": "REJECTED", "result": None})
                    return EXIT_NOT_SUCCEEDED
                _note(f"goal accepted ({bytes(handle.goal_id.uuid).hex()})")
                result_future = handle.get_result_async()
                if not self._spin_until(result_future, result_deadline):
                    _note(f"timed out after {timeout:g} s; cancelling the goal")
                    self._cancel_when_accepted(sent)
                    return EXIT_NOT_SUCCEEDED
            except KeyboardInterrupt:
                _note("interrupted; cancelling the goal")
                self._cancel_when_accepted(sent)
                return EXIT_INTERRUPTED
            response = result_future.result()
            status = _status_name(response.status)
            _emit({"status": status, "result": message_to_dict(response.result, max_items=64)})
            _note(f"goal finished with status {status} in {time.monotonic() - started:.3f} s")
            return EXIT_SUCCEEDED if status == "SUCCEEDED" else EXIT_NOT_SUCCEEDED
        except KeyboardInterrupt:  # while waiting for the server: nothing to cancel
            return EXIT_INTERRUPTED
        finally:
            self.close()

    def _cancel_when_accepted(self, sent) -> None:
        """Cancel the goal of `sent` (a send_goal future), waiting up to 2 s for its acceptance."""
        deadline = time.monotonic() + 2.0
        if not self._spin_until(sent, deadline):
            _note("the goal was never acknowledged by the server; nothing to cancel")
            return
        handle = sent.result()
        if not handle.accepted:
            _note("the goal was rejected; nothing to cancel")
            return
        cancel = handle.cancel_goal_async()
        if self._spin_until(cancel, deadline + 2.0):
            _note("goal cancel requested: accepted" if cancel.result().goals_canceling
                  else "goal cancel requested: refused (it may have finished)")
        else:
            _note("no answer to the cancel request within 2 s")


def _status_name(code: int) -> str:
    from action_msgs.msg import GoalStatus

    names = {getattr(GoalStatus, n): n[len("STATUS_"):] for n in dir(GoalStatus) if n.startswith("STATUS_")}
    return names.get(code, f"UNKNOWN({code})")
