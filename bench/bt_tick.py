#!/usr/bin/env python3
"""Tick cost of two trees in our engine, py_trees 2.6 and BT.CPP (behaviortreepy).

Plain tree: a Sequence of 10 Sequences of 10 Sequences of 10 leaves that return SUCCESS
(1 + 10 + 100 + 1000 = 1,111 nodes), so every tick visits every node once.

Script-heavy tree (issue 33): a Sequence of 100 ReactiveSequences, each of a
ScriptCondition (`value < limit`), a Script with a `_skipIf` (`counter += 1` unless
`value > limit`) and an Inverter of a ScriptCondition (`value == limit`): 501 nodes and
400 script evaluations per tick, built from the XML by ours and by BT.CPP's own Script
nodes, on the same blackboard values. py_trees has no script language, so it sits out.

Each engine is timed for ``--ticks`` root ticks per repeat; repeats are interleaved
(ours, py_trees, BT.CPP, ..., then the script-heavy tree in both) so load changes on a
shared machine hit all engines alike, and the median over repeats is reported.

Targets: plain tree (issue 2), ours at least 25x faster than py_trees and at most 0.4 us
per node-tick; script-heavy tree (issue 33), ours at most 2x BT.CPP's time per tick.
Peak memory of building the plain tree is measured with tracemalloc (Python allocations
only, so the BT.CPP figure is the resident-set growth instead).

Run:  PYTHONPATH=. .venv/bin/python bench/bt_tick.py [--repeats 9] [--ticks 100]
"""

import argparse
import gc
import importlib
import statistics
import sys
import time
import tracemalloc
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # run from a checkout

FANOUT = 10
NODES = 1 + FANOUT + FANOUT ** 2 + FANOUT ** 3
TARGET_RATIO = 25.0
TARGET_US = 0.4
SCRIPT_GROUPS = 100
SCRIPT_NODES = 1 + 5 * SCRIPT_GROUPS
TARGET_SCRIPT_RATIO = 2.0
SCRIPT_VALUES = {"value": 1, "limit": 1000, "counter": 0}


def tree_xml(leaf_tag):
    """BT.CPP v4 XML of the benchmark tree with ``leaf_tag`` leaves."""
    leaf = f"<{leaf_tag}/>" * FANOUT
    level2 = f"<Sequence>{leaf}</Sequence>" * FANOUT
    level1 = f"<Sequence>{level2}</Sequence>" * FANOUT
    return ('<root BTCPP_format="4"><BehaviorTree ID="Main">'
            f"<Sequence>{level1}</Sequence></BehaviorTree></root>")


def script_tree_xml():
    """BT.CPP v4 XML of the script-heavy tree (the same text for every engine)."""
    group = ('<ReactiveSequence>'
             '<ScriptCondition code="value &lt; limit"/>'
             '<Script code="counter += 1" _skipIf="value &gt; limit"/>'
             '<Inverter><ScriptCondition code="value == limit"/></Inverter>'
             '</ReactiveSequence>')
    return ('<root BTCPP_format="4"><BehaviorTree ID="Main"><Sequence>'
            f'{group * SCRIPT_GROUPS}</Sequence></BehaviorTree></root>')


# ----- engine builders: each returns a zero-argument "tick the root once" callable -----
def build_ours():
    from robot_tasks.bt import BehaviorTreeFactory, NodeStatus
    success = NodeStatus.SUCCESS
    factory = BehaviorTreeFactory()
    factory.register_simple_action("Ok", lambda node: success)
    tree = factory.create_tree_from_text(tree_xml("Ok"))
    assert len(tree.nodes) == NODES, len(tree.nodes)
    return tree.tick_once


def build_py_trees():
    from py_trees.behaviours import Success
    from py_trees.composites import Sequence

    def sequence(children):
        return Sequence("Sequence", memory=False, children=children)

    root = sequence([sequence([sequence([Success() for _ in range(FANOUT)])
                               for _ in range(FANOUT)]) for _ in range(FANOUT)])
    return root.tick_once


def build_btcpp_native():
    import behaviortreepy
    factory = behaviortreepy.BehaviorTreeFactory()
    tree = factory.create_tree_from_text(tree_xml("AlwaysSuccess"))

    def tick():
        return tree.tick_once()
    tick.factory = factory  # the factory must outlive the tree
    return tick


def build_btcpp_python_leaves():
    import behaviortreepy
    success = behaviortreepy.NodeStatus.SUCCESS
    factory = behaviortreepy.BehaviorTreeFactory()
    factory.register_simple_action("Ok", lambda node: success)
    tree = factory.create_tree_from_text(tree_xml("Ok"))

    def tick():
        return tree.tick_once()
    tick.factory = factory
    return tick


def build_ours_scripts():
    from robot_tasks.bt import BehaviorTreeFactory
    tree = BehaviorTreeFactory().create_tree_from_text(script_tree_xml())
    assert len(tree.nodes) == SCRIPT_NODES, len(tree.nodes)
    for key, value in SCRIPT_VALUES.items():
        tree.root_blackboard.set(key, value)
    return tree.tick_once, lambda: tree.root_blackboard.get("counter")


def build_btcpp_scripts():
    import behaviortreepy
    factory = behaviortreepy.BehaviorTreeFactory()
    tree = factory.create_tree_from_text(script_tree_xml())
    board = tree.root_blackboard()
    for key, value in SCRIPT_VALUES.items():
        board.set_int(key, value)

    def tick():
        return tree.tick_once()
    tick.factory = factory  # the factory must outlive the tree
    return tick, lambda: board.get_int("counter")


SCRIPT_ENGINES = {"ours": build_ours_scripts, "btcpp": build_btcpp_scripts}
SCRIPT_LABELS = {"ours": "ours (robot_tasks.bt)", "btcpp": "BT.CPP 4.8.2 native (its Script nodes)"}


ENGINES = {
    "ours": build_ours,
    "py_trees": build_py_trees,
    "btcpp": build_btcpp_native,
    "btcpp+pyleaves": build_btcpp_python_leaves,
}
LABELS = {
    "ours": "ours (robot_tasks.bt, Python leaves)",
    "py_trees": "py_trees 2.6 (Success leaves, tick_once)",
    "btcpp": "BT.CPP 4.8.2 native (AlwaysSuccess)",
    "btcpp+pyleaves": "BT.CPP 4.8.2 + Python leaves",
}


def check_leaf_calls():
    """Sanity check before timing: every tick calls every Python leaf exactly once."""
    calls = []
    from robot_tasks.bt import BehaviorTreeFactory, NodeStatus
    factory = BehaviorTreeFactory()
    factory.register_simple_action("Ok", lambda node: calls.append(1) or NodeStatus.SUCCESS)
    tree = factory.create_tree_from_text(tree_xml("Ok"))
    statuses = {tree.tick_once() for _ in range(3)}
    assert statuses == {NodeStatus.SUCCESS} and len(calls) == 3 * FANOUT ** 3, (statuses, len(calls))


def build_script_trees(names):
    """The script-heavy tree in each available engine, checked first: three ticks give
    SUCCESS and run every Script (counter == 3 x 100) in both."""
    built, notes = {}, {}
    for name in names:
        if name not in SCRIPT_ENGINES:
            continue
        try:
            importlib.import_module(MODULES[name])
            tick, counter_of = SCRIPT_ENGINES[name]()
            results = {str(tick()).rsplit(".", 1)[-1] for _ in range(3)}
            counter = counter_of()
        except Exception as exc:  # an engine that is missing is reported, not fatal
            notes[name] = f"unavailable: {type(exc).__name__}: {exc}"
            continue
        assert results == {"SUCCESS"} and counter == 3 * SCRIPT_GROUPS, (name, results, counter)
        built[name] = tick
    return built, notes


def _rss_kib():
    with open("/proc/self/statm") as statm:
        return int(statm.read().split()[1]) * 4  # resident pages of 4 KiB


MODULES = {"ours": "robot_tasks.bt", "py_trees": "py_trees",
           "btcpp": "behaviortreepy", "btcpp+pyleaves": "behaviortreepy"}


def build_measured(name):
    """Build one engine's tree; return (tick, memory text) or (None, error text).

    The engine's module is imported first, so the memory figure is the tree's alone.
    """
    try:
        importlib.import_module(MODULES[name])
    except ImportError as exc:
        return None, f"unavailable: {exc}"
    gc.collect()
    rss_before = _rss_kib()
    tracemalloc.start()
    try:
        tick = ENGINES[name]()
        tick()  # first tick outside the timing (lazy setup, caches)
    except Exception as exc:  # an engine that is missing is reported, not fatal
        tracemalloc.stop()
        return None, f"unavailable: {type(exc).__name__}: {exc}"
    _current, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    if name.startswith("btcpp"):
        memory = f"RSS +{(_rss_kib() - rss_before) / 1024:.1f} MiB (native)"
    else:
        memory = f"peak {peak / 2 ** 20:.2f} MiB (tracemalloc)"
    return tick, memory


def time_ticks(tick, ticks, finish=None):
    """Seconds per root tick over ``ticks`` ticks, with the cyclic GC paused (as timeit does);
    `finish()` (e.g. a logger's flush) is timed with the ticks."""
    gc.disable()
    try:
        start = time.perf_counter()
        for _ in range(ticks):
            tick()
        if finish is not None:
            finish()
        return (time.perf_counter() - start) / ticks
    finally:
        gc.enable()


def print_script_table(samples, notes, names):
    """The script-heavy tree's table and its verdict; True unless the 2x target is missed."""
    us = {name: statistics.median(values) * 1e6 for name, values in samples.items()}
    print(f"script-heavy tree ({SCRIPT_NODES} nodes: {SCRIPT_GROUPS} x ReactiveSequence of "
          f"ScriptCondition, Script _skipIf, Inverter(ScriptCondition)), median")
    print(f"{'engine':<42} {'us/tree-tick':>12} {'us/script':>12}")
    for name in (n for n in names if n in SCRIPT_ENGINES):
        if name in us:
            print(f"{SCRIPT_LABELS[name]:<42} {us[name]:>12.1f} {us[name] / (4 * SCRIPT_GROUPS):>12.3f}")
        else:
            print(f"{SCRIPT_LABELS[name]:<42} {'-':>12} {'-':>12}  {notes.get(name, 'not run')}")
    if "ours" not in us or "btcpp" not in us:
        print("ours vs BT.CPP on scripts: not measured (an engine is unavailable)")
        return True
    ratio = us["ours"] / us["btcpp"]
    verdict = "PASS" if ratio <= TARGET_SCRIPT_RATIO else "MISS"
    print(f"ours vs BT.CPP on scripts: {ratio:.2f}x its time per tick "
          f"(target <= {TARGET_SCRIPT_RATIO:.0f}x)  {verdict}")
    return verdict == "PASS"


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=9, help="interleaved repeats (median)")
    parser.add_argument("--ticks", type=int, default=100, help="root ticks per repeat")
    parser.add_argument("--strict", action="store_true", help="exit 1 when a target is missed")
    parser.add_argument("--engines", default=",".join(ENGINES),
                        help="comma list of " + ", ".join(ENGINES))
    args = parser.parse_args(argv)
    names = [n for n in args.engines.split(",") if n]
    ticks_for = {name: args.ticks for name in names}
    ticks_for["py_trees"] = max(1, args.ticks // 4)  # 30x slower: fewer ticks, same accuracy

    if "ours" in names:
        try:
            check_leaf_calls()
        except ImportError:
            pass  # reported as unavailable below
    built, memory = {}, {}
    for name in names:
        tick, memory[name] = build_measured(name)
        if tick is not None:
            built[name] = tick
    scripted, script_notes = build_script_trees(names)
    samples = {name: [] for name in built}
    script_samples = {name: [] for name in scripted}
    started = time.perf_counter()
    for _ in range(args.repeats):
        for name, tick in built.items():
            samples[name].append(time_ticks(tick, ticks_for[name]))
        for name, tick in scripted.items():
            script_samples[name].append(time_ticks(tick, args.ticks))
    elapsed = time.perf_counter() - started

    us = {name: statistics.median(values) / NODES * 1e6 for name, values in samples.items()}
    print(f"bt_tick: {NODES}-node tree (Sequence > 10 Sequence > 10 Sequence > 10 leaves), "
          f"{args.repeats} interleaved repeats, median; {elapsed:.1f} s")
    print(f"{'engine':<42} {'us/node-tick':>12} {'ms/tree-tick':>12}  memory")
    for name in names:
        if name in us:
            print(f"{LABELS[name]:<42} {us[name]:>12.3f} {us[name] * NODES / 1000:>12.3f}  "
                  f"{memory[name]}")
        else:
            print(f"{LABELS[name]:<42} {'-':>12} {'-':>12}  {memory[name]}")
    ok = True
    if "ours" not in us:
        print("plain-tree targets: not checked (our engine is unavailable)")
    else:
        if "py_trees" in us:
            ratio = us["py_trees"] / us["ours"]
            verdict = "PASS" if ratio >= TARGET_RATIO else "MISS"
            ok &= verdict == "PASS"
            print(f"ours vs py_trees: {ratio:.1f}x faster (target >= {TARGET_RATIO:.0f}x)  {verdict}")
        for name in ("btcpp", "btcpp+pyleaves"):
            if name in us:
                print(f"ours vs {LABELS[name]}: {us['ours'] / us[name]:.2f}x its time")
        verdict = "PASS" if us["ours"] <= TARGET_US else "MISS"
        ok &= verdict == "PASS"
        print(f"ours per node-tick: {us['ours']:.3f} us (target <= {TARGET_US} us)  {verdict}")
    print()
    ok &= print_script_table(script_samples, script_notes, names)
    return 0 if ok or not args.strict else 1


if __name__ == "__main__":
    sys.exit(main())
