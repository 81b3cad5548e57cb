"""Stacking episodes split over two computers: `bench/stacking_success.py --two-hosts`.

Each episode runs in two fresh network namespaces, the robot's computer and the task's
(robot_tasks.testing.split_stacking), and after each a packet counter checks that no packet
of it reached this machine's own interfaces. A disturbance is sent from the task host as the
demo sends it (robot_tasks.testing.remote_disturb): drag, the one the two-host runs are asked
for. Root only (namespaces); the table is the episode bench's (robot_tasks.demo.episodes).

    python bench/stacking_success.py --two-hosts --seeds 5 --modes none,drag
"""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from robot_tasks.demo.episodes import summary_table
from robot_tasks.tasks.catalog import task_spec

TWO_HOST_MODES = (None, "drag")


def run_two_host_episodes(seeds: list[int], out: Path = Path("runs/bench"), say=print,
                          modes=(None,)) -> dict:
    """franka_stacking episodes per mode, each split over two fresh network namespaces;
    the same result shape as run_episodes (no sim time: the sim runs on the other host)."""
    from robot_tasks.ros.domains import pick_free_domain_id
    from robot_tasks.testing.isolation import TrafficWatch
    from robot_tasks.testing.netns import TwoHosts
    from robot_tasks.testing.split_stacking import run_split_stacking

    results: dict = {mode or "none": {"runs": []} for mode in modes}
    for mode in modes:
        runs = results[mode or "none"]["runs"]
        for seed in seeds:
            domain = pick_free_domain_id()
            with TrafficWatch(domain) as watch, TwoHosts() as hosts:
                run = run_split_stacking(hosts, out / "two_hosts" / (mode or "none") / f"seed{seed}", domain,
                                         seed=seed, disturb=mode)
            watch.check()                # IsolationError: a packet reached the host's interfaces
            cubes = run.grade.get("cubes", [])
            runs.append({"seed": seed, "success": run.success, "sim_time_s": None, "wall_time_s": run.wall_s,
                         "items": len(cubes), "items_ok": sum(bool(c.get("ok")) for c in cubes),
                         "veth_bytes": run.veth_bytes, "disturbance": run.disturbance})
            sent = run.disturbance.get("response", run.disturbance.get("error", ""))
            say(f"two hosts {mode or 'none':5s} seed {seed:3d}: {'ok  ' if run.success else 'FAIL'} "
                f"{runs[-1]['items_ok']}/{runs[-1]['items']} cubes ok, wall {run.wall_s} s, robot host "
                f"{run.veth_bytes.get('robot')} bytes (rx, tx) on its veth{f'; disturbance: {sent}' if mode else ''}")
    return results


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--two-hosts", action="store_true", required=True, help="(this bench's switch)")
    parser.add_argument("--seeds", type=int, default=5, help="episodes per mode (seeds first..first+N-1)")
    parser.add_argument("--first-seed", type=int, default=0)
    parser.add_argument("--modes", default="none", help="comma-separated, of none,drag (default none)")
    parser.add_argument("--out", type=Path, default=Path("runs/bench"))
    args = parser.parse_args(argv)
    from robot_tasks.testing.netns import unavailable_reason

    modes = [None if m == "none" else m for m in args.modes.split(",") if m]
    why = unavailable_reason()
    if not set(modes) <= set(TWO_HOST_MODES) or why:
        print(f"--two-hosts: runs franka_stacking with --modes none,drag, as root{f'; here: {why}' if why else ''}",
              file=sys.stderr)
        return 2
    seeds = list(range(args.first_seed, args.first_seed + args.seeds))
    args.out.mkdir(parents=True, exist_ok=True)
    results = run_two_host_episodes(seeds, args.out, modes=modes)
    print(summary_table(results, task_spec("franka_stacking").targets))
    (args.out / "summary.json").write_text(json.dumps(results, indent=1))
    return 0
