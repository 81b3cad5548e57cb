"""`robot-tasks monitor`: watch and debug BT.CPP trees in the browser.

Give it the Groot2 publishers to watch, as HOST:PORT (the publisher's REP port: the
tree_executor's groot2_port, 1667 by default; BT.CPP's C++ publisher works too), and/or
a recorded `.btlog`. It serves a page on http://127.0.0.1:PORT/ (it prints the URL)
showing every node with its live status, the blackboards, and buttons for
breakpoints, resume, step and fault injection; a slider scrubs back through the
recorded transitions (of the live tree, or of a `.btlog`).

    robot-tasks monitor 127.0.0.1:1667
    robot-tasks monitor 127.0.0.1:1667 127.0.0.1:1677 --port 8090
    robot-tasks monitor --btlog runs/2026-12-05_10-00-00/tree.btlog

The page can reach only the publishers named here. A publisher that does not answer
is shown as such (and retried every second); the monitor keeps running. Ctrl-C stops it.
"""
from __future__ import annotations

import argparse
import sys

from robot_tasks.commands._errors import CommandError


def register(subparsers) -> None:
    parser = subparsers.add_parser(
        "monitor", help="watch Groot2 publishers (or a .btlog) in the browser",
        description=__doc__.split("\n\n", 1)[1], formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("publishers", nargs="*", metavar="HOST:PORT",
                        help="a Groot2 publisher's REP port (its PUB port is PORT+1)")
    parser.add_argument("--port", type=int, default=8090,
                        help="the page's port on 127.0.0.1 (default 8090; 0 = any free port)")
    parser.add_argument("--btlog", action="append", default=[], metavar="FILE",
                        help="replay a .btlog file (may be given more than once)")
    parser.set_defaults(func=run)


def parse_address(text: str) -> tuple[str, int]:
    host, sep, port = text.rpartition(":")
    if not sep or not host or not port.isdigit() or not 0 < int(port) < 65535:
        raise CommandError(f"'{text}' is not HOST:PORT (for example 127.0.0.1:1667)")
    return host.strip("[]"), int(port)


def run(args) -> int:
    import asyncio
    import signal

    from robot_tasks.errors import RobotTasksError
    from robot_tasks.monitor.replay import load_btlog
    from robot_tasks.monitor.server import MonitorServer
    from robot_tasks.monitor.tree_model import TreeXmlError
    from robot_tasks.monitor.watcher import PublisherWatch

    if not args.publishers and not args.btlog:
        print("robot-tasks monitor: name at least one publisher (HOST:PORT) or --btlog FILE", file=sys.stderr)
        return 2
    if not 0 <= args.port < 65536:
        print(f"robot-tasks monitor: --port {args.port} is not a port", file=sys.stderr)
        return 2
    try:
        addresses = [parse_address(text) for text in args.publishers]
        watches = [PublisherWatch(i, host, port, report=lambda m: None) for i, (host, port) in enumerate(addresses)]
        replays = [load_btlog(path, len(watches) + i) for i, path in enumerate(args.btlog)]
    except (RobotTasksError, TreeXmlError, OSError) as exc:
        print(f"robot-tasks monitor: {exc}", file=sys.stderr)
        return 2

    def started(server) -> None:
        print(f"monitor: {server.url}", flush=True)
        for watch in watches:
            print(f"  watching the Groot2 publisher at {watch.label}", flush=True)
        for replay in replays:
            print(f"  replaying {replay['label']} ({len(replay['transitions'])} transitions)", flush=True)

    import threading

    printing = threading.Lock()   # one watch thread per publisher: one line at a time

    def echo(message: dict) -> None:
        # a publisher that goes away or comes back is said in the terminal too, once per change
        if message["type"] == "connection":
            with printing:
                print(f"  {message['message']}", file=sys.stdout if message["ok"] else sys.stderr, flush=True)

    async def main() -> None:
        server = MonitorServer(watches, replays, port=args.port, echo=echo)
        stop = asyncio.get_running_loop().create_future()
        for signum in (signal.SIGINT, signal.SIGTERM):
            asyncio.get_running_loop().add_signal_handler(signum, lambda: stop.done() or stop.set_result(None))

        await server.serve(started, stop)

    try:
        asyncio.run(main())
    except OSError as exc:
        print(f"robot-tasks monitor: can't serve on 127.0.0.1:{args.port}: {exc.strerror or exc}", file=sys.stderr)
        return 1
    return 0
