"""Run many seeded demo episodes of one task per disturbance mode and summarise them.

The body of bench/stacking_success.py (issue 6) and bench/palletizing_success.py
(issue 10): each episode is a full demo run (`run_demo`, real processes), one after the
other.

    python -m robot_tasks.demo.episodes --seeds 20 --out runs/bench

`--reuse-nodes` (issue 37: 3) starts the node set once for all the episodes of the run and
resets the scene with each episode's seed (robot_tasks/demo/node_set.py: what is reset,
and when the set is restarted instead); bench/episode_reuse.py measures what it saves.
"""
from __future__ import annotations

import argparse
import json
import signal
import statistics
import sys
import threading
from contextlib import nullcontext
from pathlib import Path

from robot_tasks.demo.node_set import SharedNodes
from robot_tasks.demo.runner import DemoOptions, run_demo, run_folder_prefix
from robot_tasks.tasks.catalog import task_spec, tasks
from robot_tasks.tasks.stacking.episode import STACKING

MODES = (None, "drag", "drop", "knock")


def run_episodes(seeds: list[int], modes=MODES, out: Path = Path("runs/bench"), rtf: float = 1.0,
                 say=print, stop: threading.Event | None = None, task=STACKING, timeout: float = 900.0,
                 seed_major: bool = False, reuse_nodes: bool = False) -> dict:
    """{mode: {"runs": [...per-episode summaries...]}} after running every (mode, seed):
    every seed of one mode before the next mode, or with `seed_major` every mode of one
    seed before the next seed (a bench stopped early then still reports each mode).
    When `stop` is set (Ctrl-C), the interrupted episode is left out and no more run.
    `reuse_nodes`: every episode on one node set, reset between episodes (the disturbance
    is the demo's doing, so one set serves every mode)."""
    results: dict = {mode or "none": {"runs": []} for mode in modes}
    order = ([(mode, seed) for seed in seeds for mode in modes] if seed_major
             else [(mode, seed) for mode in modes for seed in seeds])
    shared = SharedNodes(DemoOptions(task=task, seed=seeds[0] if seeds else 0, out=out, rtf=rtf),
                         say=lambda _line: None) if reuse_nodes else nullcontext()
    with shared as nodes:
        _run_in_order(order, results, out, rtf, say, stop, task, timeout, nodes)
    return results


def _run_in_order(order, results, out, rtf, say, stop, task, timeout, nodes) -> None:
    for mode, seed in order:
        runs = results[mode or "none"]["runs"]
        folder = out / (mode or "none")
        try:
            code = run_demo(DemoOptions(task=task, seed=seed, disturb=mode, out=folder, rtf=rtf, timeout=timeout),
                            say=lambda _line: None, nodes=nodes)
        except KeyboardInterrupt:
            code = None
        if code is None or (stop is not None and stop.is_set()):
            say(f"{mode or 'none':6s} seed {seed:3d}: interrupted, not counted; stopping")
            return
        report_path = sorted(folder.glob(run_folder_prefix(task.name, seed, mode) + "*/report.json"))[-1]
        report = json.loads(report_path.read_text())
        item_key = task_spec(task.name).items
        items = report.get(item_key, []) if item_key else []
        runs.append({"seed": seed, "success": code == 0, "sim_time_s": report.get("sim_time_s"),
                     "wall_time_s": report.get("wall_time_s"), "report": str(report_path),
                     "items": len(items), "items_ok": sum(bool(i.get("ok")) for i in items)})
        say(f"{mode or 'none':6s} seed {seed:3d}: {'ok  ' if code == 0 else 'FAIL'} "
            f"{runs[-1]['items_ok']}/{runs[-1]['items']} {item_key or 'items'} ok, "
            f"sim {report.get('sim_time_s')} s wall {report.get('wall_time_s')} s")


def stop_on_interrupt() -> threading.Event:
    """An event set by Ctrl-C (which also raises KeyboardInterrupt, as usual), for a bench of
    many episodes. Ctrl-C reaches the episode's nodes too (same process group), which can end
    the episode as a plain failure before Python sees the interrupt: the event tells the bench
    to leave that episode out and run no more."""
    stop = threading.Event()

    def on_interrupt(_signum, _frame):
        stop.set()
        raise KeyboardInterrupt

    signal.signal(signal.SIGINT, on_interrupt)
    return stop


def summary_table(results: dict, targets) -> str:
    """Per mode: episodes fully correct (and their share), items correct (cubes/bins, over
    all episodes), median sim and wall time of the successful episodes, targets (the task
    spec's: {mode: %, "items": %}), verdict."""
    lines = [f"{'mode':6s} {'success':>9s} {'items ok':>14s} {'median sim s':>13s} {'median wall s':>14s} "
             f"{'target':>7s} {'items target':>13s}"]
    item_target = targets.get("items")
    for mode, data in results.items():
        runs = data["runs"]
        ok = sum(r["success"] for r in runs)
        sims = [r["sim_time_s"] for r in runs if r["success"] and r["sim_time_s"] is not None]
        walls = [r["wall_time_s"] for r in runs if r["success"] and r["wall_time_s"] is not None]
        med = (lambda xs: f"{statistics.median(xs):.1f}" if xs else "-")
        rate = 100.0 * ok / max(1, len(runs))
        items, items_ok = sum(r.get("items", 0) for r in runs), sum(r.get("items_ok", 0) for r in runs)
        item_rate = 100.0 * items_ok / items if items else None
        item_text = f"{items_ok}/{items} {item_rate:3.0f}%" if items else "-"
        target = targets.get(mode, min(v for k, v in targets.items() if k != "items" and v is not None))
        verdict = "PASS" if rate >= target else "MISS"
        item_verdict = "-"
        if item_target is not None and item_rate is not None:
            item_verdict = f"{item_target:.0f}% {'PASS' if item_rate >= item_target else 'MISS'}"
        lines.append(f"{mode:6s} {ok:>3d}/{len(runs):<3d} {rate:3.0f}% {item_text:>14s} "
                     f"{med(sims):>8s} {med(walls):>14s} {target:>5.0f}% {verdict} {item_verdict:>13s}")
    return "\n".join(lines)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seeds", type=int, default=20, help="episodes per mode (seeds 0..N-1)")
    parser.add_argument("--first-seed", type=int, default=0)
    parser.add_argument("--modes", default=None, help="comma-separated (default: none,drag,drop,knock; "
                                                      "with --two-hosts: none)")
    parser.add_argument("--out", type=Path, default=Path("runs/bench"))
    parser.add_argument("--rtf", type=float, default=1.0)
    parser.add_argument("--task", choices=[spec.name for spec in tasks() if spec.items], default="franka_stacking")
    parser.add_argument("--timeout", type=float, default=900.0, help="wall s per episode")
    parser.add_argument("--seed-major", action="store_true",
                        help="every mode of a seed before the next seed (stopped early, each mode still reported)")
    parser.add_argument("--reuse-nodes", action="store_true",
                        help="start the nodes once and reset the scene between episodes (issue 37: 3)")
    args = parser.parse_args(argv)
    spec = task_spec(args.task)
    task = spec.load_demo()
    mode_names = args.modes if args.modes is not None else ",".join(mode or "none" for mode in spec.modes)
    modes = [None if m == "none" else m for m in mode_names.split(",") if m]
    stop = stop_on_interrupt()
    seeds = list(range(args.first_seed, args.first_seed + args.seeds))
    results = run_episodes(seeds, modes, args.out, args.rtf,
                           stop=stop, task=task, timeout=args.timeout, seed_major=args.seed_major,
                           reuse_nodes=args.reuse_nodes)
    print(summary_table(results, spec.targets))
    (args.out / "summary.json").write_text(json.dumps(results, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
