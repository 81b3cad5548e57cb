"""`robot-tasks execute TREE [--payload YAML]`: run a tree on a tree_executor and wait for it.

Sends an ExecuteTree goal (TREE is a tree ID the executor loaded, or an XML file
path relative to its tree dirs), prints one line per feedback message and then
the result:

    feedback: tick 12; running: MainTree/Sequence/MoveToJoints
    result: SUCCESS (error_code 0, 57 ticks)

Exit codes: 0 the root returned SUCCESS; 1 anything else (failure, rejected tree
or payload, cancelled, --timeout hit, which cancels the goal); 2 bad arguments;
3 no executor within --server-timeout; 130 interrupted (Ctrl-C cancels the goal).
"""
from __future__ import annotations

import argparse
import os
import sys
import time

EXIT_SUCCESS, EXIT_FAILED, EXIT_BAD_INPUT, EXIT_NO_SERVER, EXIT_INTERRUPTED = 0, 1, 2, 3, 130


def register(subparsers) -> None:
    parser = subparsers.add_parser(
        "execute", help="run a behavior tree on the tree_executor node (ExecuteTree action)",
        description=__doc__.split("\n\n", 1)[1], formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("tree", help="tree ID or XML file (relative to the executor's tree dirs)")
    parser.add_argument("-p", "--payload", default="",
                        help="blackboard entries as a YAML mapping, e.g. '{target: red_cube}'")
    parser.add_argument("--server", default="execute_tree", help="ExecuteTree action name (default: execute_tree)")
    parser.add_argument("-t", "--timeout", type=float, default=None, metavar="S",
                        help="cancel the run and exit 1 after S seconds (default: wait)")
    parser.add_argument("--server-timeout", type=float, default=5.0, metavar="S",
                        help="wait this long for the executor to appear (default: 5)")
    parser.add_argument("-q", "--quiet", action="store_true", help="print only the result")
    parser.set_defaults(func=run)


def run(args) -> int:
    for flag in ("timeout", "server_timeout"):
        value = getattr(args, flag)
        if value is not None and not value > 0:
            print(f"error: --{flag.replace('_', '-')} must be > 0, got {value}", file=sys.stderr)
            return EXIT_BAD_INPUT
    from rclpy.action import ActionClient

    from robot_tasks.ros.client import RosClient
    from robot_tasks_interfaces.action import ExecuteTree

    ros = RosClient(f"execute_{os.getpid()}")        # Ctrl-C stays a KeyboardInterrupt -> cancel
    client = ActionClient(ros.node, ExecuteTree, args.server)
    try:
        return _execute(args, ros, client, ExecuteTree)
    except KeyboardInterrupt:
        return EXIT_INTERRUPTED
    finally:
        client.destroy()
        ros.close()


def _execute(args, ros, client, ExecuteTree) -> int:
    from robot_tasks.ros.error_codes import code_name

    if not ros.wait_for(client.server_is_ready, args.server_timeout):
        print(f"error: no ExecuteTree server '{args.server}' after {args.server_timeout:g} s "
              f"(ROS_DOMAIN_ID={os.environ.get('ROS_DOMAIN_ID', '0')}); is tree_executor running?",
              file=sys.stderr)
        return EXIT_NO_SERVER

    def on_feedback(message):
        if not args.quiet:
            print(f"feedback: {message.feedback.message}", flush=True)

    goal = ExecuteTree.Goal(target_tree=args.tree, payload=args.payload)
    outcome = ros.run_goal(client, goal, feedback=on_feedback, timeout=args.timeout)
    if outcome.kind != "result":
        what = {"rejected": "error: the executor did not accept the goal",
                "timeout": f"timed out after {args.timeout or 0:g} s; cancelling the run",
                "interrupted": "interrupted; cancelling the run",
                "server_lost": f"error: server lost: the tree executor '{args.server}'"}
        print(what[outcome.kind] + (f" ({outcome.note})" if outcome.note else ""), file=sys.stderr)
        if outcome.kind in ("timeout", "interrupted") and outcome.handle is not None:
            _print_cancelled_result(ros, outcome.handle)
        return EXIT_INTERRUPTED if outcome.kind == "interrupted" else EXIT_FAILED
    result = outcome.response.result
    line = f"result: {result.node_status or 'IDLE'} (error_code {result.error_code} " \
           f"{code_name(ExecuteTree.Result, result.error_code)}, {result.tick_count} ticks)"
    print(line + (f": {result.return_message}" if result.return_message else ""), flush=True)
    ok = result.error_code == ExecuteTree.Result.SUCCESS and result.node_status == "SUCCESS"
    return EXIT_SUCCESS if ok else EXIT_FAILED


def _print_cancelled_result(ros, handle) -> None:
    """The halted run's result, once the executor has answered the cancel."""
    result = handle.get_result_async()
    if ros.spin_until(result, time.monotonic() + 2.0):
        print(f"result: {result.result().result.node_status or 'IDLE'} (cancelled)", flush=True)

