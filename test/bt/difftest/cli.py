"""Command line: compare many random trees between BT.CPP (behaviortreepy) and our engine.

    PYTHONPATH=. .venv/bin/python bench/bt_difftest.py --trees 5000 --seed 1
    PYTHONPATH=. .venv/bin/python bench/bt_difftest.py --show 1234   # one case, both traces
"""

import argparse
import sys

from .compare import compare_many, make_runners
from .engines import available_engines
from .generator import generate_case
from .runner import mismatch_report, resolve_plan


def show(seed, oracle, ours):
    """Print one case and both engines' traces, whether or not they match."""
    case = generate_case(seed)
    plan = resolve_plan(oracle, case)
    traces = [oracle.run(case, plan)]
    names = [oracle.name]
    if ours is not None:
        traces.append(ours.run(case, plan))
        names.append(ours.name)
    else:
        traces.append([])
        names.append("ours (unavailable)")
    print(mismatch_report(case, plan, names, *traces, index=None))


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--trees", type=int, default=2000, help="number of random trees")
    parser.add_argument("--seed", type=int, default=0, help="first seed (seeds are consecutive)")
    parser.add_argument("--max-reports", type=int, default=5,
                        help="stop after this many mismatches")
    parser.add_argument("--time-limit", type=float, default=None,
                        help="stop after this many seconds")
    parser.add_argument("--show", type=int, default=None, metavar="SEED",
                        help="print one case (XML, plan, both traces) and exit")
    args = parser.parse_args(argv)
    _oracle_engine, ours_engine, why = available_engines()
    if why:
        print(f"our engine is unavailable ({why}); running the oracle alone")
    oracle, ours = make_runners(ours_engine)
    if args.show is not None:
        show(args.show, oracle, ours)
        return 0
    summary = compare_many(range(args.seed, args.seed + args.trees), oracle, ours,
                           max_reports=args.max_reports, time_limit=args.time_limit)
    for seed, report in summary["mismatches"]:
        print(report)
        print()
    outcomes = ", ".join(f"{k} {v}" for k, v in sorted(summary["outcomes"].items()))
    print(f"compared {summary['compared']} trees (seeds {args.seed}..) in "
          f"{summary['seconds']:.1f} s; oracle final results: {outcomes}")
    print(f"mismatches: {len(summary['mismatches'])}"
          + (" (stopped early)" if len(summary["mismatches"]) >= args.max_reports else ""))
    return 1 if summary["mismatches"] else 0


if __name__ == "__main__":
    sys.exit(main())
