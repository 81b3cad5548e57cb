"""Benchmark (issue 37: 3): episodes per hour on fresh nodes against one reused node set.

A fresh episode starts and stops the task's whole node set; a reused one keeps the nodes
and resets the scene with its seed through the sim's reset_scene
(robot_tasks/demo/node_set.py). Both ways run the same seeds in one run, one way after
the other, each a full demo episode (same disturbance rule, grading and run folder):

    .venv/bin/python bench/episode_reuse.py [--seeds 3] [--rtf 0] [--task franka_stacking]
        [--mode none] [--out runs/bench_reuse]

Prints per way: episodes, successes, total wall time (node starts and stops included),
episodes per hour, median wall time of an episode; then per seed whether both ways graded
it alike (success and every item's verdict).
"""
from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

from robot_tasks.demo.episodes import run_episodes
from robot_tasks.tasks.catalog import task_spec, tasks

WAYS = (("fresh", False), ("reused", True))


def verdicts(report_path: str, items_key: str) -> tuple:
    report = json.loads(Path(report_path).read_text())
    return report["success"], tuple(bool(i.get("ok")) for i in report.get(items_key, []))


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seeds", type=int, default=3, help="episodes per way (seeds first..first+N-1)")
    parser.add_argument("--first-seed", type=int, default=0)
    parser.add_argument("--rtf", type=float, default=0.0)
    parser.add_argument("--task", choices=[spec.name for spec in tasks() if spec.items], default="franka_stacking")
    parser.add_argument("--mode", default="none", help="disturbance mode of every episode")
    parser.add_argument("--timeout", type=float, default=600.0, help="wall s per episode")
    parser.add_argument("--out", type=Path, default=Path("runs/bench_reuse"))
    args = parser.parse_args(argv)
    spec = task_spec(args.task)
    task = spec.load_demo()
    seeds = list(range(args.first_seed, args.first_seed + args.seeds))
    mode = None if args.mode == "none" else args.mode
    rows, runs = [], {}
    for way, reuse in WAYS:
        started = time.monotonic()
        results = run_episodes(seeds, [mode], args.out / way, args.rtf, say=lambda line, w=way: print(f"{w:6s} {line}"),
                               task=task, timeout=args.timeout, reuse_nodes=reuse)
        wall = time.monotonic() - started
        runs[way] = results[args.mode]["runs"]
        walls = [r["wall_time_s"] for r in runs[way] if r["wall_time_s"] is not None]
        rows.append((way, len(runs[way]), sum(r["success"] for r in runs[way]), wall,
                     3600.0 * len(runs[way]) / wall, statistics.median(walls) if walls else float("nan")))
    print(f"\n{task.name}, mode {args.mode}, rtf {args.rtf:g}, seeds {seeds[0]}..{seeds[-1]}")
    print(f"{'way':7s} {'episodes':>8s} {'success':>8s} {'total wall s':>13s} {'episodes/h':>11s} "
          f"{'median episode wall s':>22s}")
    for way, count, ok, wall, per_hour, median in rows:
        print(f"{way:7s} {count:8d} {ok:>5d}/{count:<2d} {wall:13.1f} {per_hour:11.0f} {median:22.1f}")
    print(f"reused/fresh episodes per hour: {rows[1][4] / rows[0][4]:.2f}x")
    key = spec.items
    for fresh, reused in zip(runs["fresh"], runs["reused"]):
        same = verdicts(fresh["report"], key) == verdicts(reused["report"], key)
        print(f"seed {fresh['seed']:3d}: fresh {'ok  ' if fresh['success'] else 'FAIL'} "
              f"{fresh['items_ok']}/{fresh['items']}, reused {'ok  ' if reused['success'] else 'FAIL'} "
              f"{reused['items_ok']}/{reused['items']} {key} ok: {'same' if same else 'DIFFERENT'}")
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / "summary.json").write_text(json.dumps({"rows": rows, "runs": runs}, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
