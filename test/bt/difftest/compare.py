"""Compare many random cases between BT.CPP (the oracle) and our engine."""

import collections
import time

from .engines import OracleEngine
from .generator import generate_case
from .isolation import IsolatedRunner, LocalRunner
from .runner import first_difference, mismatch_report, resolve_plan


def make_runners(ours_engine):
    """The oracle in a worker process (see isolation.py) and ours in-process (or None)."""
    oracle = IsolatedRunner(OracleEngine, OracleEngine.name)
    return oracle, (LocalRunner(ours_engine) if ours_engine is not None else None)


def compare_seed(seed, oracle, ours):
    """Run one seed with both runners; return (outcome, report). Report is None on a match.

    ``outcome`` summarises the oracle's run (last step result) for the statistics.
    """
    case = generate_case(seed)
    plan = resolve_plan(oracle, case)
    expected = oracle.run(case, plan)
    outcome = expected[-1].result if expected else "EMPTY"
    if ours is None:
        return outcome, None
    actual = ours.run(case, plan)
    index = first_difference(expected, actual)
    if index is None:
        return outcome, None
    return outcome, mismatch_report(case, plan, (oracle.name, ours.name), expected, actual, index)


def compare_many(seeds, oracle, ours, max_reports=5, time_limit=None):
    """Compare every seed (stopping early at ``time_limit`` seconds); return a summary dict."""
    started = time.monotonic()
    outcomes = collections.Counter()
    mismatches = []
    compared = 0
    for seed in seeds:
        if time_limit is not None and time.monotonic() - started > time_limit:
            break
        outcome, report = compare_seed(seed, oracle, ours)
        outcomes[outcome] += 1
        compared += 1
        if report is not None:
            mismatches.append((seed, report))
            if len(mismatches) >= max_reports:
                break
    return {"compared": compared, "outcomes": dict(outcomes), "mismatches": mismatches,
            "seconds": time.monotonic() - started}
