"""Benchmark (issue 11): banana -> bowl success rate, for the banana and the center_align lemon.

Runs N seeded episodes per object (default 20), each a full `robot-tasks demo banana_bowl`
run with real processes over loopback DDS, one after the other, and prints per object the
success rate, the failures split by component (within_footprint, inside_bowl, both, or the
run/tree itself) and median sim/wall time. Target: >= 95 % each.

    .venv/bin/python bench/banana_bowl_success.py [--seeds 20] [--objects banana,lemon] [--out runs/bench_bb]

~40-60 s wall per episode on 2 cores: 20 seeds x 2 objects is ~30-40 minutes. Ctrl-C stops
after the running episode is cleaned up and prints what has run so far.
"""
from __future__ import annotations

import argparse
import statistics
import sys
from collections import Counter
from pathlib import Path

TARGET_PERCENT = 95.0


def summarise(name: str, episodes: list) -> str:
    ok = sum(e.success for e in episodes)
    failures = Counter(e.failure() for e in episodes if not e.success)
    sim = [e.report.get("sim_time_s") for e in episodes if e.report.get("sim_time_s") is not None]
    wall = [e.report.get("wall_time_s") for e in episodes if e.report.get("wall_time_s") is not None]
    rate = 100.0 * ok / len(episodes) if episodes else 0.0
    split = ", ".join(f"{k}: {v}" for k, v in sorted(failures.items())) or "-"
    return (f"| {name:7s} | {len(episodes):4d} | {rate:5.1f} % {'ok' if rate >= TARGET_PERCENT else 'LOW':3s} | "
            f"{split} | {statistics.median(sim) if sim else float('nan'):.1f} | "
            f"{statistics.median(wall) if wall else float('nan'):.1f} |")


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seeds", type=int, default=20)
    parser.add_argument("--first-seed", type=int, default=0)
    parser.add_argument("--objects", default="banana,lemon")
    parser.add_argument("--out", type=Path, default=Path("runs/bench_banana_bowl"))
    parser.add_argument("--rtf", type=float, default=1.0)
    args = parser.parse_args(argv)
    if not 1 <= args.seeds <= 1000:
        parser.error("--seeds must be in 1..1000")
    from robot_tasks.demo.demonstrations import run_episode

    objects = [o for o in args.objects.split(",") if o]
    results = {o: [] for o in objects}
    try:
        for seed in range(args.first_seed, args.first_seed + args.seeds):   # seed-major: every object per seed
            for name in objects:
                episode = run_episode(seed, name, args.out / name, rtf=args.rtf)
                results[name].append(episode)
                print(f"{name:7s} seed {seed:3d}: {'ok  ' if episode.success else 'FAIL'} {episode.failure()} "
                      f"sim {episode.report.get('sim_time_s')} s wall {episode.report.get('wall_time_s')} s",
                      flush=True)
    except KeyboardInterrupt:
        print("interrupted: the table counts the finished episodes")
    print("\n| object  | runs | success      | failures by component | median sim s | median wall s |")
    print("|---------|------|--------------|-----------------------|--------------|---------------|")
    for name in objects:
        print(summarise(name, results[name]))
    return 0 if all(results[o] and 100.0 * sum(e.success for e in results[o]) / len(results[o]) >= TARGET_PERCENT
                    for o in objects) else 1


if __name__ == "__main__":
    sys.exit(main())
