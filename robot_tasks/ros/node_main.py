"""The one `main()` of every node process: DDS set-up, rclpy init, build, spin, stop.

Every process of the project (`python -m robot_tasks.nodes.<process>`, the console
scripts, the test nodes under `test/`) ends its `main()` with

    return run_node(ArmServer, args)

and gets the same life cycle:

1. DDS: loopback unless the deployment opted out (`robot_tasks.ros.dds.configure_dds`);
   a test node that set up its own loopback profile passes `configure_dds=False`.
2. SIGINT/SIGTERM set a stop flag (`StopRequest`) instead of shutting the rclpy context
   down from a signal handler. The context then stays alive while the node stops, so a
   tree executor can still send its leaves' cancel requests, and rclpy 9.1's
   take-after-shutdown race (a RuntimeError from `Subscription.take_message` raised
   while the signal handler shuts the context down) cannot happen.
3. The node is built. A `RobotTasksError` (a `ParameterError` naming the parameter, an
   unknown scene ...) or one of rclpy's parameter/name errors raised while building is a
   bad configuration: its message is printed as `<program>: <message>` and the process
   exits with code 2. Any other exception is a bug and propagates (exit 1, traceback).
4. The node runs: by default the executor (`make_executor`: rclpy's SingleThreadedExecutor,
   or the EventsExecutor on request) spins until the stop flag is set; a process with its own loop (the sim steps
   physics on the main thread) passes `main_loop(node, executor, stop)`.
5. Shutdown in the order that leaves nothing behind (shared/ros/README.md): the
   executor, the node's `close()` if it has one (its own threads), the node, the
   context. Exit code 0. Work that needs the executor while stopping (the tree executor
   halting a tree and waiting for its cancels) belongs at the end of `main_loop`.
"""
from __future__ import annotations

import sys
from typing import Callable, Sequence

from robot_tasks.errors import RobotTasksError
from robot_tasks.ros.stop_request import StopRequest

SPIN_POLL_S = 0.1   # s; the default loop sees a stop request within this time

MainLoop = Callable[[object, object, StopRequest], None]


EXECUTOR_ENV = "ROBOT_TASKS_EXECUTOR"
EXECUTOR_KINDS = ("events", "single_threaded")
DEFAULT_EXECUTOR = "single_threaded"


def make_executor(kind: str | None = None):
    """The executor a node process spins (`ROBOT_TASKS_EXECUTOR`, default "single_threaded").

    "single_threaded": rclpy's SingleThreadedExecutor, the default: every node, test and
    fault scenario of the project is proven on it.
    "events": rclpy's EventsExecutor (rclpy.experimental, C++), opt-in. It reacts to each
    arrival instead of rebuilding a wait set of every entity in Python on each wake-up, so
    it costs less CPU per message (bench/episode_speed.py measures both side by side). On
    rclpy 9.1.2 it is not yet a drop-in: no guard conditions, an EventsExecutor spinning
    in its own thread did not stop on shutdown(), the Groot2-monitoring and
    server-lost tests fail with it, and the tree_executor used 77 % of a core with it in
    an episode (24 % single-threaded); the sim always uses the single-threaded one.
    """
    import os

    kind = kind or os.environ.get(EXECUTOR_ENV) or DEFAULT_EXECUTOR
    if kind not in EXECUTOR_KINDS:
        raise RobotTasksError(f"{EXECUTOR_ENV}={kind!r}: use one of {', '.join(EXECUTOR_KINDS)}")
    if kind == "events":
        from rclpy.experimental import EventsExecutor

        return EventsExecutor()
    from rclpy.executors import SingleThreadedExecutor

    return SingleThreadedExecutor()


def spin_until_stopped(node, executor, stop: StopRequest) -> None:
    """The default main loop: spin the executor on this thread until SIGINT/SIGTERM."""
    while not stop():
        executor.spin_once(timeout_sec=SPIN_POLL_S)


def run_node(make_node: Callable[[], object], args: Sequence[str] | None = None, *,
             program: str = "node", main_loop: MainLoop | None = None,
             configure_dds: bool = True, executor_kind: str | None = None) -> int:
    """Run one node process from start to exit code (see the module docstring).

    Args:
        make_node: builds the rclpy node (usually the node class itself).
        args: the full argv, or just the ROS arguments (`--ros-args ...`); default sys.argv.
        program: the process's name, the prefix of its error messages.
        main_loop: `main_loop(node, executor, stop)` instead of `spin_until_stopped`.
        configure_dds: False when the caller already set up loopback DDS its own way.
        executor_kind: "single_threaded" or "events" (see `make_executor`); None = the
            ROBOT_TASKS_EXECUTOR environment variable, else "single_threaded".
    Returns 0 after a clean stop, 2 for a bad configuration.
    """
    argv = list(sys.argv if args is None else args)
    if not argv or argv[0].startswith("-"):
        argv.insert(0, program)                 # rcl expects a program name first
    stop = StopRequest().install()
    if configure_dds:
        from robot_tasks.ros.dds import configure_dds as set_up_dds

        set_up_dds()                            # before rclpy.init(): loopback unless opted out
    import rclpy
    from rclpy.exceptions import NameValidationException, ParameterException
    from rclpy.signals import SignalHandlerOptions

    try:
        rclpy.init(args=argv, signal_handler_options=SignalHandlerOptions.NO)
    except Exception as err:  # noqa: BLE001 - rcl's argument errors have no public class
        print(f"{program}: cannot start ROS with arguments {argv[1:]}: {err}", file=sys.stderr)
        return 2
    node = executor = None
    try:
        try:
            node = make_node()
        except (RobotTasksError, ParameterException, NameValidationException) as err:
            print(f"{program}: {err}", file=sys.stderr)
            return 2
        executor = make_executor(executor_kind)
        executor.add_node(node)
        (main_loop or spin_until_stopped)(node, executor, stop)
        return 0
    except KeyboardInterrupt:                   # a second Ctrl-C: the default handler is back
        return 0
    finally:
        if executor is not None:
            executor.shutdown()
        if node is not None:
            if hasattr(node, "close"):
                node.close()
            node.destroy_node()
        rclpy.try_shutdown()
