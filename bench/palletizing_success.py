"""Benchmark (issue 10): UR10 palletizing, per-episode and per-bin success.

Runs N seeded episodes (default 20) undisturbed and with `--disturb drop` (and `slot` if
asked), each a full `robot-tasks demo ur10_palletizing` run with real processes over
loopback DDS, one after the other (both modes of a seed, then the next seed, so a bench
stopped early still reports each mode), printing each episode as it ends. An episode is
correct when nine bins stand upright, one per slot; a bin is correct when it stands
upright in a slot of its own. The table: episodes correct, bins correct, median sim and
wall time. Targets: >= 95 % of episodes and >= 99 % of bins.

    .venv/bin/python bench/palletizing_success.py [--seeds 20] [--modes none,drop] [--out runs/bench_pallet]

An episode is ~3-6 min of wall time on 2 cores (nine bins, about half through the flip
station), so 20 seeds x 2 modes take hours; bound it with --seeds and `timeout`.
"""
import sys

from robot_tasks.demo.episodes import main

if __name__ == "__main__":
    defaults = ["--task", "ur10_palletizing", "--modes", "none,drop", "--out", "runs/bench_pallet",
                "--timeout", "1100", "--seed-major"]
    sys.exit(main(defaults + sys.argv[1:]))
