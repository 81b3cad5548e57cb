"""`robot-tasks demo <name>`: the whole chain, end to end, with a run folder.

    robot-tasks demo franka_stacking                       # seed 0, no disturbance
    robot-tasks demo franka_stacking --seed 3 --disturb drag --out runs/
    robot-tasks demo ur10_palletizing --seed 1 --disturb drop|slot|tilt
    robot-tasks demo franka_press --out runs/              # compliant press (robot_tasks/tasks/press/episode.py)
    robot-tasks demo banana_bowl --seed 2 --object lemon   # pick-and-place expert (robot_tasks/tasks/banana_bowl/episode.py)
    robot-tasks demo banana_bowl --no-render               # the same rollout, no images kept
    robot-tasks demo franka_pyramid --seed 3 --disturb drag|drop   # two Pandas take a pyramid apart
    robot-tasks demo franka_stacking --foxglove            # watch it in Foxglove meanwhile

Starts the node set of config/<name>.yaml (the sim headless, or in PyBullet's window with
--gui), runs the task's tree, prints each phase as it starts, optionally disturbs the run
through the sim's perturb_object service, and writes report.json, montage.png (press.png
for the press), tree_status.log, nodes.log and a .btlog into a new folder under --out.
Exit code 0 when the result is correct (graded on the sim's ground truth: all four cubes
stacked in order; nine bins upright, one per slot; 10 N held on the wall; the object in
the bowl; three cubes on each Panda's stack), 1 otherwise, 2 on bad arguments. banana_bowl
also writes images/ (eight phases), trace.npz (state/action per control step) and bag/
(rosbag2, MCAP storage); franka_stacking and ur10_palletizing write bag/ with every
trajectory the arm server sent (arm_server/sent_trajectory).
"""
from __future__ import annotations

import argparse
import math
import sys
from pathlib import Path

from robot_tasks.tasks.catalog import tasks


def register(subparsers) -> None:
    parser = subparsers.add_parser("demo", help="run an end-to-end demo and write a run folder",
                                   description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    specs = tasks()
    parser.add_argument("name", choices=[spec.name for spec in specs], help="which demo")
    parser.add_argument("--seed", type=int, default=0, help="scene seed (default 0)")
    disturbances = "; ".join(f"{spec.name}: {', '.join(spec.disturbances)}" for spec in specs if spec.disturbances)
    parser.add_argument("--disturb", choices=sorted({mode for spec in specs for mode in spec.disturbances}),
                        default=None, help=f"disturb the run mid-task through the sim's perturb service ({disturbances})")
    parser.add_argument("--out", type=Path, default=Path("runs"), help="parent of the run folder (default runs/)")
    parser.add_argument("--rtf", type=float, default=1.0, help="sim real-time factor (default 1.0)")
    parser.add_argument("--timeout", type=float, default=None,
                        help="wall seconds for the run (default 900; 180 for the press)")
    parser.add_argument("--gui", action="store_true",
                        help="show the sim in PyBullet's own window (default headless; needs a display)")
    parser.add_argument("--foxglove", action="store_true",
                        help="also run the Foxglove bridge while the demo runs (prints the URL to open)")
    parser.add_argument("--config", type=Path, default=None, help="bringup YAML (default: the package's)")
    pickers = [spec for spec in specs if spec.objects]
    parser.add_argument("--object", choices=sorted({name for spec in pickers for name in spec.objects}), default=None,
                        help="the object to pick (" + "; ".join(f"{spec.name}: {', '.join(spec.objects)}, default "
                                                              f"{spec.objects[0]}" for spec in pickers) + ")")
    parser.add_argument("--no-render", dest="render", action="store_false",
                        help="banana_bowl: keep no images (montage and images/ skipped, no camera in the bag)")
    parser.set_defaults(func=run)


def run(args) -> int:
    if not math.isfinite(args.rtf) or args.rtf < 0 or (args.timeout is not None and not args.timeout > 0):
        print("robot-tasks demo: --rtf must be >= 0 and --timeout > 0", file=sys.stderr)
        return 2
    from robot_tasks.demo.task_demo import run_task_demo
    from robot_tasks.errors import RobotTasksError

    try:
        return run_task_demo(args.name, seed=args.seed, disturb=args.disturb, pick_object=args.object, out=args.out,
                             rtf=args.rtf, timeout=args.timeout, config=args.config, foxglove=args.foxglove,
                             gui=args.gui, render=args.render, say=lambda line: print(line, flush=True))
    except RobotTasksError as exc:      # a bad bringup file, task name or mode, a missing extra, ...
        print(f"robot-tasks demo: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:  # the nodes were stopped on the way out (run_demo's finally)
        print("robot-tasks demo: interrupted; nodes stopped, no report written", file=sys.stderr)
        return 130
