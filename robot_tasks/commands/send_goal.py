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
import os
import sys
import time

EXIT_SUCCEEDED, EXIT_NOT_SUCCEEDED, EXIT_BAD_INPUT, EXIT_NO_SERVER, EXIT_INTERRUPTED = 0, 1, 2, 3, 130
POLL_S = 0.02


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




def _emit(document: dict) -> None:
    import yaml

    sys.stdout.write("---\n" + yaml.safe_dump(document, sort_keys=False, default_flow_style=False,
                                               allow_unicode=True))
    sys.stdout.flush()


def _note(text: str) -> None:
    print(text, file=sys.stderr, flush=True)


def run(args) -> int:
    from robot_tasks.ros.errors import RosError
    from robot_tasks.ros.interface_types import import_action_type
    from robot_tasks.ros.yaml_message import message_from_yaml

    try:
        action = import_action_type(args.action_type)
        goal = message_from_yaml(action.Goal, args.goal, "goal")
    except RosError as exc:          # a bad type name, or a goal that does not fill
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
    """One action client on a RosClient, spun on the calling thread (Ctrl-C stays a
    KeyboardInterrupt, so the goal can be cancelled before exiting)."""

    def __init__(self, action_name: str, action_type):
        from rclpy.action import ActionClient

        from robot_tasks.ros.client import RosClient

        self.action_name = action_name
        self.ros = RosClient(f"send_goal_{os.getpid()}")
        self.client = ActionClient(self.ros.node, action_type, action_name)

    def close(self) -> None:
        self.client.destroy()
        self.ros.close()

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
            outcome = self.ros.run_goal(
                self.client, goal, feedback=on_feedback, timeout=timeout,
                on_accepted=lambda handle: _note(f"goal accepted ({bytes(handle.goal_id.uuid).hex()})"))
            if outcome.kind == "result":
                status = _status_name(outcome.response.status)
                _emit({"status": status, "result": message_to_dict(outcome.response.result, max_items=64)})
                _note(f"goal finished with status {status} in {time.monotonic() - started:.3f} s")
                return EXIT_SUCCEEDED if status == "SUCCEEDED" else EXIT_NOT_SUCCEEDED
            if outcome.kind == "rejected":
                _note("goal rejected")
                _emit({"status": "REJECTED", "result": None})
                return EXIT_NOT_SUCCEEDED
            what = {"timeout": f"timed out after {timeout or 0:g} s; cancelling the goal",
                    "interrupted": "interrupted; cancelling the goal",
                    "server_lost": f"error: server lost: '{self.action_name}'"}[outcome.kind]
            _note(what)
            if outcome.note:
                _note(outcome.note)
            return EXIT_INTERRUPTED if outcome.kind == "interrupted" else EXIT_NOT_SUCCEEDED
        except KeyboardInterrupt:  # while waiting for the server: nothing to cancel
            return EXIT_INTERRUPTED
        finally:
            self.close()


def _status_name(code: int) -> str:
    from action_msgs.msg import GoalStatus

    names = {getattr(GoalStatus, n): n[len("STATUS_"):] for n in dir(GoalStatus) if n.startswith("STATUS_")}
    return names.get(code, f"UNKNOWN({code})")
