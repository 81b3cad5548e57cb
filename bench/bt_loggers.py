#!/usr/bin/env python3
"""Cost of each logger (and of a Groot2Publisher) on bt_tick's 1,111-node tree, side by side.

Every configuration gets its own tree (Sequence > 10 Sequence > 10 Sequence > 10
leaves, ~3,300 status changes per tick): nothing attached, nothing attached after a
logger was attached and closed (the observer hook must leave no trace), and each
logger writing to a temporary directory (the console logger to os.devnull). Repeats
are interleaved so load changes on a shared machine hit all alike; the median is
reported per node-tick and as the extra cost over "none". A logger's time includes
writing out what its ticks logged (flush() at the end of each timed block), so a
background writer's work is charged to it and not to the next configuration.

Bounded: --ticks root ticks per repeat (default 20) x --repeats (default 7); files go
to a temporary directory removed at the end. The Groot2Publisher binds 127.0.0.1 on
a free port pair and no client connects.

Run:  PYTHONPATH=. .venv/bin/python bench/bt_loggers.py [--repeats 7] [--ticks 20]
"""

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # run from a checkout

from bt_tick import NODES, time_ticks, tree_xml  # noqa: E402  (same tree and timing as bench/bt_tick.py)

from robot_tasks.bt.groot2 import free_port_pair  # noqa: E402


def new_tree():
    from robot_tasks.bt import BehaviorTreeFactory, NodeStatus
    success = NodeStatus.SUCCESS
    factory = BehaviorTreeFactory()
    factory.register_simple_action("Ok", lambda node: success)
    return factory.create_tree_from_text(tree_xml("Ok"))



def attach(name, tree, folder, keep):
    """Attach configuration `name` to `tree`; return what must be closed at the end."""
    from robot_tasks.bt import loggers
    if name == "none":
        return None
    if name == "none after close":
        loggers.FileLogger2(tree, folder / "closed.btlog").close()
        return None
    if name == "StdCoutLogger":
        stream = open(os.devnull, "w")
        keep.append(stream)
        return loggers.StdCoutLogger(tree, stream=stream)
    if name == "FileLogger2":
        return loggers.FileLogger2(tree, folder / "run.btlog")
    if name == "SqliteLogger":
        return loggers.SqliteLogger(tree, folder / "run.db3")
    if name == "MinitraceLogger":
        return loggers.MinitraceLogger(tree, folder / "trace.json")
    if name == "Groot2Publisher":
        from robot_tasks.bt.groot2 import Groot2Publisher
        return Groot2Publisher(tree, free_port_pair())
    raise ValueError(name)


CONFIGS = ["none", "none after close", "StdCoutLogger", "FileLogger2", "SqliteLogger", "MinitraceLogger",
           "Groot2Publisher"]




def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=7)
    parser.add_argument("--ticks", type=int, default=20)
    parser.add_argument("--configs", default=",".join(CONFIGS))
    args = parser.parse_args(argv)
    names = [name for name in args.configs.split(",") if name]
    with tempfile.TemporaryDirectory(prefix="bt_loggers_") as tmp:
        folder = Path(tmp)
        trees, attached, keep = {}, {}, []
        for name in names:
            trees[name] = new_tree()
            attached[name] = attach(name, trees[name], folder, keep)
            trees[name].tick_once()
        samples = {name: [] for name in names}
        started = time.perf_counter()
        try:
            for _ in range(args.repeats):
                for name in names:
                    item = attached[name]
                    flush = item.flush if hasattr(item, "flush") else (lambda: None)
                    samples[name].append(time_ticks(trees[name].tick_once, args.ticks, flush))
        finally:
            for item in attached.values():
                if item is not None:
                    item.close()
            for stream in keep:
                stream.close()
        elapsed = time.perf_counter() - started
        sizes = {path.name: path.stat().st_size for path in folder.iterdir()}
    us = {name: statistics.median(values) / NODES * 1e6 for name, values in samples.items()}
    base = us.get("none")
    print(f"bt_loggers: {NODES}-node tree, {args.ticks} ticks x {args.repeats} interleaved repeats, median; "
          f"{elapsed:.1f} s")
    print(f"{'attached':<22} {'us/node-tick':>12} {'ms/tree-tick':>12} {'x none':>8}")
    for name in names:
        ratio = f"{us[name] / base:8.2f}" if base else "       -"
        print(f"{name:<22} {us[name]:>12.3f} {us[name] * NODES / 1000:>12.3f} {ratio}")
    print("files written:", ", ".join(f"{name} {size / 1024:.0f} KiB" for name, size in sorted(sizes.items())))
    return 0


if __name__ == "__main__":
    sys.exit(main())
