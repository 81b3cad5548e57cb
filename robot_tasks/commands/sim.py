"""`robot-tasks sim`: run a simulated scene, or render it to a PNG with --snapshot.

    robot-tasks sim --scene franka_stacking --seed 3 --snapshot out.png   # image, then exit
    robot-tasks sim --scene franka_stacking --rtf 1.0                     # the ROS sim node
    robot-tasks sim --scene ur10_palletizing --rtf 0 -p camera_rate:=0    # any node parameter
    robot-tasks sim --scene franka_pyramid --gui                          # in PyBullet's window

Without --snapshot this starts the sim node (`robot_tasks.nodes.sim.main`) and hands it
the options as ROS parameters: `--ros-args -p scene:=S -p seed:=N -p real_time_factor:=X`
plus every `-p NAME:=VALUE` given (see robot_tasks/nodes/sim/parameters.py for the list).
Note that the camera (5 Hz of sim time by default) bounds how fast `--rtf 0` can run.
"""
from __future__ import annotations

import argparse
import importlib
import importlib.util
import math
import sys

NODE_MODULE = "robot_tasks.nodes.sim.main"


def register(subparsers) -> None:
    parser = subparsers.add_parser("sim", help="run a PyBullet scene (the sim node) or render a snapshot",
                                   description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--scene", required=True, help="scene name (franka_stacking, banana_bowl, "
                                                        "franka_pyramid, ur10_palletizing)")
    parser.add_argument("--seed", type=int, default=0, help="scene seed (default 0)")
    parser.add_argument("--rtf", type=float, default=1.0,
                        help="real-time factor: 1.0 real time, 0 as fast as possible (default 1.0)")
    parser.add_argument("-p", "--param", action="append", default=[], metavar="NAME:=VALUE",
                        help="extra sim node parameter, e.g. -p camera_rate:=0 -p namespaces.panda:=arm "
                             "(repeatable)")
    parser.add_argument("--gui", action="store_true",
                        help="open PyBullet's own window instead of running headless (needs a display)")
    parser.add_argument("--snapshot", metavar="OUT.png",
                        help="render the scene to this PNG and exit (no ROS needed)")
    parser.add_argument("--settle", type=float, default=0.5,
                        help="sim seconds to let the scene settle before the snapshot (default 0.5)")
    parser.set_defaults(func=run)


def run(args) -> int:
    from robot_tasks.sim.scenes import scene_names

    names = scene_names()
    if args.scene not in names:
        print(f"robot-tasks sim: unknown scene '{args.scene}' (known: {', '.join(names)})", file=sys.stderr)
        return 2
    if not math.isfinite(args.rtf) or args.rtf < 0:
        print(f"robot-tasks sim: --rtf must be a finite number >= 0, got {args.rtf}", file=sys.stderr)
        return 2
    bad = [p for p in args.param if ":=" not in p or not p.split(":=", 1)[0]]
    if bad:
        print(f"robot-tasks sim: -p expects NAME:=VALUE, got {', '.join(bad)}", file=sys.stderr)
        return 2
    if args.snapshot:
        return _snapshot(args)
    if importlib.util.find_spec(NODE_MODULE) is None:
        print(f"robot-tasks sim: the ROS sim node ({NODE_MODULE}) is not built yet; "
              f"only --snapshot works for now", file=sys.stderr)
        return 3
    node_main = importlib.import_module(NODE_MODULE).main
    ros_args = ["--ros-args", "-p", f"scene:={args.scene}", "-p", f"seed:={args.seed}",
                "-p", f"real_time_factor:={float(args.rtf)}"]
    if args.gui:
        ros_args += ["-p", "gui:=true"]
    for param in args.param:
        ros_args += ["-p", param]
    return int(node_main(ros_args) or 0)


def _snapshot(args) -> int:
    from robot_tasks.sim.errors import SimError
    from robot_tasks.sim.snapshot import snapshot

    try:
        path = snapshot(args.scene, args.snapshot, seed=args.seed, settle_steps=max(0, int(args.settle * 240)))
    except (SimError, OSError, ValueError) as err:
        print(f"robot-tasks sim: snapshot failed: {err}", file=sys.stderr)
        return 1
    print(path)
    return 0
