"""`robot-tasks record banana_bowl`: record a dataset of successful demonstrations.

    robot-tasks record banana_bowl --episodes 10 --out data/banana
    robot-tasks record banana_bowl --episodes 5 --object lemon --first-seed 100 --out data/lemon

Runs seeded episodes of the banana_bowl demo one after the other (each a full run with
real processes over loopback DDS, ~40-60 s wall; one node set serves them all, the sim's
scene reset with each seed, unless --fresh-nodes) until --episodes of them succeeded, with
a progress bar; keeps only the successful ones, each as DIR/episode_NNNN/ (trace.npz:
(T, 9) state/action per control step; bag/: rosbag2 MCAP of the run's topics; images/;
report.json), and writes DIR/index.json (episode, seed, object, success components,
length, files). Failed episodes are listed in the index with why, and deleted.
Exit code 0 when all were recorded, 1 when fewer succeeded within 2 x --episodes tries.
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

TASKS = ("banana_bowl",)
BAR = 30


def register(subparsers) -> None:
    parser = subparsers.add_parser("record", help="record a dataset of successful demonstrations",
                                   description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("task", choices=TASKS, help="which task")
    parser.add_argument("--episodes", type=int, required=True, help="successful episodes to keep")
    parser.add_argument("--out", type=Path, required=True, help="dataset folder (created)")
    parser.add_argument("--object", choices=("banana", "lemon"), default="banana", help="object to pick")
    parser.add_argument("--first-seed", type=int, default=0, help="seed of the first episode (default 0)")
    parser.add_argument("--rtf", type=float, default=1.0, help="sim real-time factor (default 1.0)")
    parser.add_argument("--no-render", dest="render", action="store_false", help="keep no images")
    parser.add_argument("--fresh-nodes", dest="reuse_nodes", action="store_false",
                        help="start and stop the nodes for every episode (default: one node set, the scene "
                             "reset with each seed)")
    parser.set_defaults(func=run)


def progress_line(done: int, total: int, episode) -> str:
    filled = int(BAR * done / max(total, 1))
    last = "" if episode is None else (f"  seed {episode.seed}: " +
                                       ("kept" if episode.success else f"skipped ({episode.failure()})"))
    return f"[{'#' * filled}{'.' * (BAR - filled)}] {done}/{total}{last}"


def run(args) -> int:
    if not 1 <= args.episodes <= 10_000 or args.first_seed < 0:
        print("robot-tasks record: --episodes must be in 1..10000 and --first-seed >= 0", file=sys.stderr)
        return 2
    from robot_tasks.demo.demonstrations import record_dataset

    def progress(done, total, episode):
        end = "\n" if episode is not None and not episode.success else ""
        print("\r" + progress_line(done, total, episode), end=end, flush=True)

    try:
        index = record_dataset(args.episodes, args.out, args.object, args.first_seed, render=args.render,
                               rtf=args.rtf, progress=progress, reuse_nodes=args.reuse_nodes)
    except KeyboardInterrupt:
        print("\nrobot-tasks record: interrupted; nodes stopped, the index was not written", file=sys.stderr)
        return 130
    print(f"\nrecord: kept {index['kept']} of {index['attempted']} episodes in {args.out} (index.json)")
    return 0 if index["kept"] == args.episodes else 1
