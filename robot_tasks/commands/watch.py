"""`robot-tasks watch`: follow the tree_executor's tree_status topic in the terminal.

On a terminal it redraws the running tree, indented, with coloured statuses
(RUNNING yellow, SUCCESS green, FAILURE red, SKIPPED blue, IDLE grey). Otherwise
(piped, in a log) it prints one plain line per status change:

    MoveSequence tick 12: MoveSequence/moves/first RUNNING -> SUCCESS

A run's first TreeStatus lists every node, so a watcher started before the run
sees the whole tree; one started mid-run sees the nodes as they change.

--once exits (0) when the first run it sees ends; --timeout bounds the wait
(exit 1 when it expires before a run ended).
"""
from __future__ import annotations

import argparse
import math
import os
import sys
import time

COLORS = {"RUNNING": "\033[33m", "SUCCESS": "\033[32m", "FAILURE": "\033[31m", "SKIPPED": "\033[34m",
          "IDLE": "\033[90m"}
RESET = "\033[0m"


def register(subparsers) -> None:
    parser = subparsers.add_parser(
        "watch", help="show the live status of the running behavior tree",
        description=__doc__.split("\n\n", 1)[1], formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--topic", default="tree_status", help="TreeStatus topic (default: tree_status)")
    parser.add_argument("--once", action="store_true", help="exit when the first run seen ends")
    parser.add_argument("-t", "--timeout", type=float, default=None, metavar="S",
                        help="give up after S seconds (exit 1)")
    parser.add_argument("--plain", action="store_true", help="plain lines even on a terminal")
    parser.set_defaults(func=run)


class TreeView:
    """What is known about the watched run: node paths and their latest status."""

    def __init__(self):
        self.tree_id = ""
        self.tick_count = 0
        self.root_status = "IDLE"
        self.nodes: dict[int, tuple[str, str, str]] = {}  # uid -> (path, registration_id, status)

    def update(self, msg) -> list[str]:
        """Apply one TreeStatus; return its changes as plain lines."""
        if msg.tree_id != self.tree_id or msg.tick_count == 0:
            self.nodes = {}
        self.tree_id, self.tick_count, self.root_status = msg.tree_id, msg.tick_count, msg.root_status
        lines = []
        for change in msg.changes:
            self.nodes[change.uid] = (change.path, change.registration_id, change.status)
            if change.previous_status != change.status:
                lines.append(f"{msg.tree_id} tick {msg.tick_count}: {change.path} "
                             f"{change.previous_status} -> {change.status}")
        if msg.tick_count == 0:
            lines.insert(0, f"{msg.tree_id}: started ({len(msg.changes)} nodes)")
        elif msg.root_status != "RUNNING":
            lines.append(f"{msg.tree_id}: ended {msg.root_status} after {msg.tick_count} ticks")
        return lines

    @staticmethod
    def ended(msg) -> bool:
        return msg.tick_count > 0 and msg.root_status != "RUNNING"

    def render(self, color: bool) -> str:
        """The tree as indented lines (depth from the path), in uid order."""
        out = [f"{self.tree_id}  tick {self.tick_count}  root {self._paint(self.root_status, color)}"]
        for uid in sorted(self.nodes):
            path, registration_id, status = self.nodes[uid]
            depth = path.count("/") - 1
            name = path.rsplit("/", 1)[-1]
            label = name if name == registration_id else f"{name} ({registration_id})"
            out.append(f"{'  ' * depth}{label}: {self._paint(status, color)}")
        return "\n".join(out)

    @staticmethod
    def _paint(status: str, color: bool) -> str:
        return f"{COLORS.get(status, '')}{status}{RESET}" if color else status


def run(args) -> int:
    from rclpy.qos import QoSProfile, ReliabilityPolicy

    from robot_tasks.ros.client import RosClient
    from robot_tasks_interfaces.msg import TreeStatus

    live = sys.stdout.isatty() and not args.plain
    view = TreeView()
    state = {"done": False}

    def on_status(msg) -> None:
        lines = view.update(msg)
        if live:
            sys.stdout.write("\033[H\033[J" + view.render(color=True) + "\n")
        else:
            for line in lines:
                sys.stdout.write(line + "\n")
        sys.stdout.flush()
        if args.once and view.ended(msg):
            state["done"] = True

    ros = RosClient(f"watch_{os.getpid()}")
    node = ros.node
    node.create_subscription(TreeStatus, args.topic, on_status,
                             QoSProfile(depth=100, reliability=ReliabilityPolicy.RELIABLE))
    deadline = None if args.timeout is None else time.monotonic() + args.timeout
    if not live:
        print(f"watching '{node.resolve_topic_name(args.topic)}' ...", file=sys.stderr, flush=True)
    try:
        left = math.inf if deadline is None else deadline - time.monotonic()
        return 0 if ros.wait_for(lambda: state["done"], left, poll_s=0.1) else 1
    except KeyboardInterrupt:
        return 0
    finally:
        ros.close()
