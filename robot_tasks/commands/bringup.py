"""`robot-tasks bringup CONFIG`: start the node set a bringup YAML describes.

    robot-tasks bringup config/franka_stacking.yaml
    robot-tasks bringup config/franka_stacking.yaml --set sim.seed=3 --set sim.real_time_factor=0
    robot-tasks bringup config/franka_stacking.yaml --dry-run     # print the commands only
    robot-tasks bringup config/franka_stacking.yaml --foxglove    # + the Foxglove bridge
    robot-tasks bringup config/franka_stacking.yaml --skip sim    # the sim runs on another computer

The same file drives `ros2 launch robot_tasks franka_stacking.launch.xml` on a ROS 2
install. Every node gets loopback-only DDS (robot_tasks.ros.dds; a real deployment opts out
with ROBOT_TASKS_DDS=system) and the file as its
--params-file. Output lines are prefixed with the node name. Ctrl-C stops all nodes
(last started first). Supervision as `ros2 launch` does it, per node in the file:
`respawn: true` (+ `respawn_delay`) starts a node again when it exits; the exit of a
`required: true` node stops the others and the exit code is 1; any other exit is
reported and the rest go on.

Peers: the nodes you `--skip` (and those named with `--peer`) are expected to run elsewhere,
typically on another computer of the cell. A `peer_watch` node reports each as it appears in
the ROS graph, leaves it ("peer /sim LOST": it ended, or its computer has not been heard for
the DDS lease, 20 s with Fast DDS's defaults) and comes back (`--no-peer-watch`: none).
"""
from __future__ import annotations

import argparse
import os
import signal
import sys
import tempfile
import threading
from pathlib import Path

from robot_tasks.process import FOXGLOVE_NODE


def register(subparsers) -> None:
    parser = subparsers.add_parser("bringup", help="start the nodes of a bringup YAML (as ros2 launch would)",
                                   description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("config", metavar="CONFIG", help="bringup YAML, e.g. config/franka_stacking.yaml")
    parser.add_argument("--set", action="append", default=[], metavar="NODE.PARAM=VALUE",
                        help="override one parameter (value read as YAML); repeatable")
    parser.add_argument("--driver", choices=("sim", "real"), default=None,
                        help="who drives the robots: the sim (default) or the real robots' drivers "
                             "(no sim; the file's real_remappings and real_params)")
    parser.add_argument("--skip", action="append", default=[], metavar="NODE",
                        help="do not start this node (e.g. to run it yourself); repeatable")
    parser.add_argument("--peer", action="append", default=[], metavar="NODE",
                        help="a node expected on another computer (e.g. a real driver's "
                             "/controller_manager): reported as it comes and goes; repeatable")
    parser.add_argument("--no-peer-watch", action="store_true",
                        help="do not report the skipped nodes and --peer nodes as they come and go")
    parser.add_argument("--foxglove", action="store_true",
                        help=f"also start the optional {FOXGLOVE_NODE} (ws://127.0.0.1:8765 by default)")
    parser.add_argument("--domain-id", type=int, default=None,
                        help="ROS_DOMAIN_ID for all nodes (default: the environment's, else 0)")
    parser.add_argument("--dry-run", action="store_true", help="print the commands and exit")
    parser.set_defaults(func=run)


def run(args) -> int:
    from robot_tasks.process import (
        BringupError,
        Supervisor,
        check_executables,
        child_environment,
        foxglove_url,
        load_plan,
        node_argv,
        parse_set_option,
        peer_watch_spec,
        with_overrides,
    )
    from robot_tasks.ros.dds import LoopbackConfigError, deployment_dds_settings

    try:
        plan = load_plan(args.config, args.driver)
        if args.foxglove:
            plan.enable(FOXGLOVE_NODE)
            print(f"bringup: Foxglove: open {foxglove_url(plan)}", flush=True)
        unknown = set(args.skip) - {s.name for s in plan.nodes}
        if unknown:
            raise BringupError(f"--skip: no node named {', '.join(sorted(unknown))} in {plan.path}")
        plan.nodes = [s for s in plan.nodes if s.name not in args.skip]
        if not plan.nodes:
            raise BringupError("nothing to start: every node is skipped")
        peers = list(dict.fromkeys(args.skip + args.peer))
        if peers and not args.no_peer_watch:
            plan.nodes.append(peer_watch_spec(plan, peers, tag=str(os.getpid())))
        check_executables(plan)
        overrides: dict = {}
        for text in args.set:
            node, param, value = parse_set_option(text)
            overrides.setdefault(node, {})[param] = value
        settings = deployment_dds_settings(args.domain_id)   # None: ROBOT_TASKS_DDS=system
    except (BringupError, LoopbackConfigError) as exc:
        print(f"robot-tasks bringup: {exc}", file=sys.stderr)
        return 2

    with tempfile.TemporaryDirectory(prefix="robot-tasks-bringup-") as tmp:
        params_file = with_overrides(plan, overrides, Path(tmp)) if overrides else plan.path
        if args.dry_run:
            for spec in plan.nodes:
                print(" ".join(node_argv(spec, plan, params_file)))
            return 0
        env = child_environment(settings)
        if settings is None and args.domain_id is not None:
            env["ROS_DOMAIN_ID"] = str(args.domain_id)
        return _supervise(plan, params_file, env, Supervisor, loopback=settings is not None)


def _supervise(plan, params_file, env, supervisor_cls, loopback: bool = True) -> int:
    stop = threading.Event()
    previous = {sig: signal.signal(sig, lambda *_: stop.set()) for sig in (signal.SIGINT, signal.SIGTERM)}
    supervisor = supervisor_cls(plan, params_file, env)
    domain = env.get("ROS_DOMAIN_ID", "0 (default)")
    network = "loopback DDS" if loopback else "the system's own DDS configuration (ROBOT_TASKS_DDS=system)"
    print(f"bringup: starting {', '.join(s.name for s in plan.nodes)} (ROS_DOMAIN_ID={domain}, {network}); "
          f"Ctrl-C stops them", flush=True)
    code = 0
    try:
        supervisor.start()
        ended = supervisor.wait(stop)
        if ended is None:
            print("bringup: stopping all nodes ...", flush=True)
        elif any(s.name == ended[0] and s.required for s in plan.nodes):
            name, exit_code = ended
            print(f"bringup: node '{name}' exited with code {exit_code}; stopping the others ...", flush=True)
            code = 1
        else:
            print("bringup: every node has ended", flush=True)
    finally:
        codes = supervisor.stop_all()
        for sig, handler in previous.items():
            signal.signal(sig, handler)
    left = [name for name, c in codes.items() if c is None]
    print(f"bringup: stopped ({', '.join(f'{n}={c}' for n, c in codes.items())})"
          + (f"; could not stop {left}" if left else ""), flush=True)
    return code
