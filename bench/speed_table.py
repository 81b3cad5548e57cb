"""Benchmark (issue 37: 4): every task and mode at rtf 1 and rtf 0, side by side in one table.

    .venv/bin/python bench/speed_table.py [--seeds 20] [--cells TASK[:MODE],...] [--speeds 1,0]
                                          [--out runs/speed_table] [--journal FILE] [--table-only]

Cells: franka_stacking none/drag/drop/knock, ur10_palletizing none/drop/slot/tilt,
franka_pyramid none/drag/drop, banana_bowl banana/lemon, franka_press (robot_tasks/demo/
speed_table.py). Each seed runs every cell at every speed before the next seed. On 2 cores
one seed of every cell at both speeds takes about an hour (palletizing and the pyramid are
3-6 min each at rtf 1): 20 seeds is an overnight run; narrow it with --cells and --seeds.
Every episode is appended to the journal (--journal, default <out>/episodes.jsonl), and a run
skips the episodes its journal holds: stop it and start it again, or run one process per
speed on one journal (--speeds 1 and --speeds 0), then print the whole table with --table-only.
Exit 0 when every cell passes (>= 95 % at each speed, rtf 0 within 5 points of rtf 1).
"""
import argparse
import json
import sys
from pathlib import Path

from robot_tasks.demo.episodes import stop_on_interrupt
from robot_tasks.demo.speed_table import (
    cell_rate,
    failures,
    results_from_journal,
    run_table,
    select_cells,
    table,
    to_json,
    verdict,
)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seeds", type=int, default=20, help="seeds per cell and speed (0..N-1)")
    parser.add_argument("--first-seed", type=int, default=0)
    parser.add_argument("--cells", default=None, help="comma-separated TASK or TASK:MODE (default: every cell)")
    parser.add_argument("--speeds", default="1,0", help="real-time factors, comma-separated (default 1,0)")
    parser.add_argument("--out", type=Path, default=Path("runs/speed_table"))
    parser.add_argument("--journal", type=Path, default=None,
                        help="every episode, one JSON line each (default <out>/episodes.jsonl)")
    parser.add_argument("--table-only", action="store_true", help="print the table from the journal; run nothing")
    args = parser.parse_args(argv)
    journal = args.journal or args.out / "episodes.jsonl"
    if not 1 <= args.seeds <= 1000:
        parser.error("--seeds must be in 1..1000")
    try:
        cells = select_cells(args.cells)
        speeds = tuple(float(part) for part in args.speeds.split(",") if part.strip())
    except ValueError as exc:
        parser.error(str(exc))
    if not speeds or any(not rtf >= 0 for rtf in speeds):
        parser.error("--speeds: real-time factors >= 0")
    seeds = list(range(args.first_seed, args.first_seed + args.seeds))
    if args.table_only:
        if not journal.exists():
            parser.error(f"--table-only: no journal at {journal}")
        results = results_from_journal(journal, cells, seeds, speeds)
    else:
        stop = stop_on_interrupt()
        print(f"{len(cells)} cells x {len(seeds)} seeds x {len(speeds)} speeds = "
              f"{len(cells) * len(seeds) * len(speeds)} episodes; run folders under {args.out}/, "
              f"journal {journal} (episodes it holds are not run again)", flush=True)
        results = run_table(cells, seeds, speeds, args.out, say=lambda line: print(line, flush=True), stop=stop,
                            journal=journal)
        print()
    print(table(results, speeds))
    for line in failures(results):
        print(f"  failed: {line}")
    commits = sorted({run.get("commit") or "?" for by_speed in results.values() for runs in by_speed.values()
                      for run in runs})
    print(f"  commits: {', '.join(commits)}")
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / "summary.json").write_text(json.dumps(to_json(results), indent=1))
    passed = all(verdict({rtf: cell_rate(runs) for rtf, runs in by_speed.items()}) == "PASS"
                 for by_speed in results.values())
    return 0 if passed else 1


if __name__ == "__main__":
    sys.exit(main())
