"""Benchmark (issue 16): how fast an episode runs, and what every node costs, busy and idle.

Three measurements in one run, each with real processes over loopback DDS:

1. one undisturbed `robot-tasks demo franka_stacking` episode per real-time factor
   (default `--rtfs 0,1`): sim time / wall time of the tree's run, and the CPU each node
   used while the tree ran (% of one core: CPU seconds / wall seconds of the run);
2. the same node set idle (`robot-tasks bringup config/franka_stacking.yaml`, rtf 1, no
   goal, nobody watching): CPU per node over `--idle-seconds` after `--warmup` seconds.

    PYTHONPATH=. .venv/bin/python bench/episode_speed.py [--rtfs 0,1] [--seed 0] [--idle-seconds 20]

Targets (issue 16): at rtf 0 the episode runs >= 3x faster than real time; a server with
no goal and no subscriber to its streams uses < 3 % of a core. The table prints each next
to its measurement with PASS/MISS. On a shared machine the figures move with the load:
compare the columns of one run, not runs of different days.
"""
from __future__ import annotations

import argparse
import json
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from robot_tasks.testing.procfs import command_line, cpu_seconds, descendants  # noqa: E402

CLI = [sys.executable, "-m", "robot_tasks.cli"]
TARGET_SPEEDUP = 3.0          # sim s per wall s at rtf 0
TARGET_IDLE_SERVER_PERCENT = 3.0
SERVERS = ("arm_server", "gripper_server", "perception_server", "tree_executor")


def node_name(pid: int) -> str | None:
    """`robot_tasks.nodes.<name>` of a node process (from its command line), else None."""
    argv = command_line(pid)
    for i, arg in enumerate(argv[:-1]):
        if arg == "-m" and argv[i + 1].startswith("robot_tasks.nodes."):
            return argv[i + 1].rsplit(".", 1)[1]
    return None


def node_cpu(root_pid: int) -> dict[str, float]:
    """{node name: CPU seconds so far} of the node processes under `root_pid`."""
    found = {}
    for pid in descendants(root_pid):
        name = node_name(pid)
        if name is not None:
            try:
                found[name] = cpu_seconds(pid)
            except OSError:
                pass
    return found


def percent(before: dict, after: dict, seconds: float) -> dict[str, float]:
    return {name: 100.0 * (after[name] - before.get(name, 0.0)) / seconds for name in after}


def run_episode(rtf: float, seed: int, out: Path, timeout: float) -> dict:
    """One demo episode; CPU per node between the tree's first phase and its end."""
    out.mkdir(parents=True, exist_ok=True)
    demo = subprocess.Popen(CLI + ["demo", "franka_stacking", "--seed", str(seed), "--rtf", str(rtf),
                                   "--out", str(out), "--timeout", str(timeout)],
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, bufsize=1)
    marks: dict[str, tuple[float, dict]] = {}
    lines: list[str] = []

    def read_output():
        for line in demo.stdout:
            lines.append(line)
            if "start" not in marks and line.lstrip().startswith("[") and " s] " in line:
                marks["start"] = (time.monotonic(), node_cpu(demo.pid))      # the tree's first phase
            elif "tree finished" in line:
                marks["end"] = (time.monotonic(), node_cpu(demo.pid))

    reader = threading.Thread(target=read_output, daemon=True)
    reader.start()
    try:
        demo.wait(timeout=timeout + 120)
    except subprocess.TimeoutExpired:
        demo.send_signal(signal.SIGINT)
        demo.wait(timeout=60)
    reader.join(timeout=5)
    reports = sorted(out.glob(f"franka_stacking_seed{seed}_*/report.json"))
    report = json.loads(reports[-1].read_text()) if reports else {}
    row = {"rtf": rtf, "exit": demo.returncode, "success": bool(report.get("success")),
           "sim_s": report.get("sim_time_s"), "wall_s": report.get("wall_time_s"), "cpu": {},
           "tail": "".join(lines[-3:]).strip()}
    if "start" in marks and "end" in marks:
        (t0, c0), (t1, c1) = marks["start"], marks["end"]
        row["cpu"] = percent(c0, c1, t1 - t0)
    return row


def measure_idle(warmup: float, seconds: float) -> dict[str, float]:
    """CPU per node of the stacking node set with no goal and no subscriber, at rtf 1."""
    from robot_tasks.ros.dds import pick_free_domain_id

    domain = pick_free_domain_id()
    bringup = subprocess.Popen(CLI + ["bringup", str(REPO / "config" / "franka_stacking.yaml"),
                                      "--domain-id", str(domain)],
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
    try:
        time.sleep(warmup)
        before, t0 = node_cpu(bringup.pid), time.monotonic()
        time.sleep(seconds)
        after, t1 = node_cpu(bringup.pid), time.monotonic()
    finally:
        bringup.send_signal(signal.SIGINT)          # bringup stops its nodes in reverse order
        try:
            bringup.wait(timeout=40)
        except subprocess.TimeoutExpired:
            bringup.kill()
            bringup.wait()
    return percent(before, after, t1 - t0)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rtfs", default="0,1", help="real-time factors of the episodes")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--idle-seconds", type=float, default=20.0)
    parser.add_argument("--warmup", type=float, default=15.0, help="s after bringup before the idle window")
    parser.add_argument("--timeout", type=float, default=300.0, help="wall s per episode")
    parser.add_argument("--out", type=Path, default=Path("runs/episode_speed"))
    args = parser.parse_args(argv)
    rtfs = [float(x) for x in args.rtfs.split(",") if x]
    rows = []
    for rtf in rtfs:
        print(f"episode at rtf {rtf:g} ...", flush=True)
        rows.append(run_episode(rtf, args.seed, args.out / f"rtf{rtf:g}", max(10.0, min(args.timeout, 900.0))))
        r = rows[-1]
        print(f"  {'SUCCESS' if r['success'] else 'FAILED'} sim {r['sim_s']} s wall {r['wall_s']} s"
              + ("" if r["success"] else f"\n  {r['tail']}"), flush=True)
    print(f"idle node set for {args.idle_seconds:g} s after {args.warmup:g} s ...", flush=True)
    idle = measure_idle(max(5.0, args.warmup), max(2.0, min(args.idle_seconds, 120.0)))

    names = sorted(set(idle) | {n for r in rows for n in r["cpu"]})
    header = f"{'node':18s}" + "".join(f"{'rtf ' + format(r['rtf'], 'g') + ' CPU %':>14s}" for r in rows)
    print("\n" + header + f"{'idle CPU %':>12s}  idle target")
    for name in names:
        line = f"{name:18s}" + "".join(f"{r['cpu'].get(name, float('nan')):14.1f}" for r in rows)
        verdict = ""
        if name in SERVERS:
            verdict = f"< {TARGET_IDLE_SERVER_PERCENT:g} % {'PASS' if idle.get(name, 0.0) < TARGET_IDLE_SERVER_PERCENT else 'MISS'}"
        print(line + f"{idle.get(name, float('nan')):12.1f}  {verdict}")
    print(f"{'total':18s}" + "".join(f"{sum(r['cpu'].values()):14.1f}" for r in rows) + f"{sum(idle.values()):12.1f}")
    print()
    for r in rows:
        speed = r["sim_s"] / r["wall_s"] if r["sim_s"] and r["wall_s"] else float("nan")
        target = f"target >= {TARGET_SPEEDUP:g}x {'PASS' if speed >= TARGET_SPEEDUP else 'MISS'}" if r["rtf"] == 0 else ""
        print(f"rtf {r['rtf']:g}: {'SUCCESS' if r['success'] else 'FAILED'}, sim {r['sim_s']} s in wall "
              f"{r['wall_s']} s = {speed:.2f}x real time  {target}")
    return 0 if all(r["success"] for r in rows) else 1


if __name__ == "__main__":
    sys.exit(main())
