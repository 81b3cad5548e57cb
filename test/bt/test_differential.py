"""Differential test: random trees behave the same in robot_tasks.bt and in BT.CPP.

BT.CPP is reached through behaviortreepy 0.1.4 (BT.CPP 4.8.2). Each seeded random tree
(test/bt/difftest/generator.py) is ticked the same way in both engines; after every
root tick or halt the test compares the root status, the ordered leaf calls (ticks,
starts, halts, with the status each leaf sees for itself) and every key of the root
blackboard. On a mismatch the failure message has everything to reproduce it: the
seed, the tick plan, the leaf scripts, the XML and both traces
(`bench/bt_difftest.py --show SEED` prints it again).

RT_DIFF_TREES sets the number of random trees (default 5000); RT_DIFF_SEED the first seed.
Known engine divergences are filtered (difftest/known_divergences.py); RT_DIFF_STRICT=1
turns the filters off to check a fix."""

import os
import sys
from pathlib import Path

import pytest

# The harness package sits next to this file; make it importable however pytest was
# started (rootdir-relative or with test/bt as a package).
sys.path.insert(0, str(Path(__file__).resolve().parent))

from difftest.compare import compare_many, compare_seed, make_runners  # noqa: E402
from difftest.engines import OracleEngine, OurEngine  # noqa: E402
from difftest.generator import Case, Plan, generate_case  # noqa: E402
from difftest.leaves import LeafSpec  # noqa: E402
from difftest.runner import run_case  # noqa: E402

TREES = int(os.environ.get("RT_DIFF_TREES", "5000"))
FIRST_SEED = int(os.environ.get("RT_DIFF_SEED", "0"))


@pytest.fixture(scope="module")
def engines():
    return OracleEngine(), OurEngine()


@pytest.fixture(scope="module")
def runners():
    """The oracle in a worker process (it can livelock in C++), ours in-process."""
    oracle, ours = make_runners(OurEngine())
    yield oracle, ours
    oracle.close()


def test_random_trees_match_btcpp(runners):
    oracle, ours = runners
    summary = compare_many(range(FIRST_SEED, FIRST_SEED + TREES), oracle, ours, max_reports=3)
    reports = "\n\n".join(report for _seed, report in summary["mismatches"])
    assert not summary["mismatches"], (
        f"{len(summary['mismatches'])} mismatching trees (stopped after 3) among "
        f"{summary['compared']} compared:\n{reports}")
    assert summary["compared"] == TREES
    # The generator must keep producing every kind of outcome, or the test gets weak.
    if TREES >= 1000:
        for outcome in ("SUCCESS", "FAILURE", "RUNNING", "SKIPPED", "ERROR"):
            assert summary["outcomes"].get(outcome, 0) > TREES // 100, summary["outcomes"]


def test_generator_is_deterministic():
    first, again = generate_case(1234), generate_case(1234)
    assert first.xml == again.xml and first.plan == again.plan and first.leaves == again.leaves
    assert generate_case(1235).xml != first.xml


def test_harness_sees_leaf_calls_halts_and_blackboard(engines):
    """A hand-written case: the traces carry what the comparison relies on."""
    xml = ('<root BTCPP_format="4"><BehaviorTree ID="Main">'
           '<ReactiveSequence><L0/><L1 _onHalted="c0 += 10"/></ReactiveSequence>'
           '</BehaviorTree></root>')
    leaves = [LeafSpec("L0", "stateful", ("SUCCESS", "RUNNING"), False),
              LeafSpec("L1", "stateful", ("RUNNING",), False)]
    case = Case(seed=-1, xml=xml, leaves=leaves, counters=["c0"], plan=Plan("exactly", 2))
    for engine in engines:
        trace = run_case(engine, case)
        # tick 0: L0 succeeds, L1 starts RUNNING; tick 1: L0 RUNNING halts L1 (+10).
        assert [step.result for step in trace] == ["RUNNING", "RUNNING"], engine.name
        assert trace[0].events == [("L0", "start", "SUCCESS", "IDLE"), ("L1", "start", "RUNNING", "IDLE")]
        assert trace[1].events == [("L0", "start", "RUNNING", "IDLE"), ("L1", "halt", "", "RUNNING")]
        assert trace[1].board == {"c0": 10.0}


def test_a_wrong_engine_is_caught(runners, monkeypatch):
    """Guards the guard: an engine whose tick_once ignores wake-up must mismatch."""
    oracle, ours = runners
    monkeypatch.setattr(OurEngine, "tick", staticmethod(
        lambda tree, mode: tree.tick_exactly_once().name))
    assert any(compare_seed(seed, oracle, ours)[1] for seed in range(200))
