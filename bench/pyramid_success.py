"""Benchmark (issue 12): two Frankas taking the pyramid apart, against one Panda alone.

Runs N seeded episodes (default 20) of `robot-tasks demo franka_pyramid` undisturbed and
with a drag of a reserved cube, and of the one-robot baseline (tree FrankaPyramidSolo:
panda_1 moves all six cubes to its goal), each a full run with real processes over
loopback DDS, one after the other, every case of a seed before the next seed (Ctrl-C
then still reports every case). Prints, side by side: success rate, median sim and
wall time of the successful episodes, the median fraction of the run in which both arms
had a motion running, how many episodes needed a recovery, and how many cubes were bumped
(moved while nobody owned them); then what the arms were doing at each bump and each
recovery flag, counted. Targets: >= 95 % undisturbed, >= 90 % with
the drag, both-moving fraction > 25 %.

    .venv/bin/python bench/pyramid_success.py [--seeds 20] [--modes none,drag] [--no-solo] [--out runs/bench_pyramid]

An episode takes ~1-2 min of wall time as one of two streams on a 2-core machine (about
0.4x real time: two arms and a 640 x 480 camera), so --seeds 20 is about an hour split
into two streams (`--modes none,drag --no-solo` and `--modes ""`, the solo baseline alone);
every episode's run folder is kept under --out, and the table is also written to summary.json.
"""
from __future__ import annotations

import argparse
import collections
import json
import signal
import statistics
import sys
import threading
from pathlib import Path

from robot_tasks.demo.episodes import run_episodes
from robot_tasks.tasks.pyramid.episode import PYRAMID, PYRAMID_SOLO

TARGETS = {"none": 95.0, "drag": 90.0, "drop": 90.0, "solo": None}
BOTH_MOVING_TARGET = 0.25


def with_motion(runs: list[dict]) -> list[dict]:
    """Each episode summary plus its report's both-moving fraction, how many recoveries it
    needed, and its bumps (cubes moved that nobody owned) and recovery flags with what the
    arms were doing then."""
    for run in runs:
        report = json.loads(Path(run["report"]).read_text())
        run["both_moving_fraction"] = report.get("motion", {}).get("both_moving_fraction")
        run["recoveries"] = len(report.get("recoveries", []))
        run["bumps"] = report.get("bumps", [])
        run["recovery_flags"] = report.get("recovery_flags", [])
    return runs


def doing_text(doing: dict) -> str:
    """{'panda_1': ['approach'], 'panda_2': ['nothing']} -> 'panda_1 approach, panda_2 nothing'."""
    return ", ".join(f"{robot} {'+'.join(leaves)}" for robot, leaves in sorted(doing.items()))


def causes(rows: dict) -> list[str]:
    """What the arms were doing at each bump and each recovery flag, counted over all runs."""
    counts = collections.Counter()
    for runs in rows.values():
        for run in runs:
            counts.update(f"bump of a free cube: {doing_text(b['doing'])}" for b in run.get("bumps", []))
            counts.update(f"{f['robot']} {f['flag']}: {doing_text(f['doing'])}" for f in run.get("recovery_flags", []))
    return [f"{n:3d} x {what}" for what, n in counts.most_common()]


def table(rows: dict) -> str:
    median = (lambda xs: f"{statistics.median(xs):.1f}" if xs else "-")
    lines = [f"{'case':6s} {'success':>11s} {'median sim s':>13s} {'median wall s':>14s} {'both moving':>12s} "
             f"{'recovered':>10s} {'bumps':>6s} {'target':>7s}"]
    for case, runs in rows.items():
        ok = [r for r in runs if r["success"]]
        rate = 100.0 * len(ok) / max(1, len(runs))
        both = [r["both_moving_fraction"] for r in ok if r.get("both_moving_fraction") is not None]
        both_text = f"{100 * statistics.median(both):.0f}%" if both and case != "solo" else "-"
        target = TARGETS.get(case)
        verdict = "-" if target is None else ("PASS" if rate >= target else "MISS")
        lines.append(f"{case:6s} {len(ok):>3d}/{len(runs):<3d} {rate:3.0f}% {median([r['sim_time_s'] for r in ok]):>13s} "
                     f"{median([r['wall_time_s'] for r in ok]):>14s} {both_text:>12s} "
                     f"{sum(1 for r in runs if r.get('recoveries')):>10d} {sum(len(r.get('bumps', [])) for r in runs):>6d} "
                     f"{'-' if target is None else f'{target:.0f}%':>7s} {verdict}")
    duo = [r["sim_time_s"] for r in rows.get("none", []) if r["success"]]
    solo = [r["sim_time_s"] for r in rows.get("solo", []) if r["success"]]
    if duo and solo:
        lines.append(f"two robots vs one (median sim time): {statistics.median(solo) / statistics.median(duo):.2f}x "
                     f"faster; both-moving target > {100 * BOTH_MOVING_TARGET:.0f}%")
    found = causes(rows)
    if found:
        lines += ["what the arms were doing at each bump and recovery flag:"] + found
    return "\n".join(lines)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seeds", type=int, default=20, help="episodes per case (seeds 0..N-1)")
    parser.add_argument("--first-seed", type=int, default=0)
    parser.add_argument("--modes", default="none,drag", help="comma-separated: none, drag, drop")
    parser.add_argument("--no-solo", action="store_true", help="skip the one-robot baseline")
    parser.add_argument("--out", type=Path, default=Path("runs/bench_pyramid"))
    parser.add_argument("--rtf", type=float, default=1.0)
    parser.add_argument("--timeout", type=float, default=1200.0, help="wall s per episode")
    args = parser.parse_args(argv)
    seeds = list(range(args.first_seed, args.first_seed + args.seeds))
    modes = [None if m == "none" else m for m in args.modes.split(",") if m]
    stop = threading.Event()

    def on_interrupt(_signum, _frame):   # Ctrl-C also reaches the episode's nodes: stop the whole bench
        stop.set()
        raise KeyboardInterrupt

    signal.signal(signal.SIGINT, on_interrupt)
    rows: dict = {mode or "none": [] for mode in modes}
    if not args.no_solo:
        rows["solo"] = []
    for seed in seeds:   # seed by seed (every case of a seed before the next): stopped early, each case reports
        duo = run_episodes([seed], modes, args.out, args.rtf, stop=stop, task=PYRAMID, timeout=args.timeout)
        for mode, data in duo.items():
            rows[mode] += with_motion(data["runs"])
        if not args.no_solo and not stop.is_set():
            solo = run_episodes([seed], [None], args.out / "solo", args.rtf, stop=stop, task=PYRAMID_SOLO,
                                timeout=args.timeout)
            rows["solo"] += with_motion(solo["none"]["runs"])
        if stop.is_set():
            break
    print(table(rows))
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / "summary.json").write_text(json.dumps(rows, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
