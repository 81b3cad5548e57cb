"""Benchmark (issue 16): how fast an episode runs, and what every node costs, busy and idle.

Per executor kind (`--executors`, default the nodes' own, single_threaded; `--executors
events,single_threaded` compares them side by side in one run: robot_tasks.ros.node_main's
ROBOT_TASKS_EXECUTOR), with real processes over loopback DDS:

1. `--repeats` undisturbed `robot-tasks demo franka_stacking` episodes per real-time factor
   (default `--rtfs 0,1`, interleaved; the tables show medians: one episode's speed moves by
   +-15 % from run to run here): sim time / wall time of the tree's run, and the CPU each node
   used while the tree ran (% of one core: CPU seconds / wall seconds of the run);
2. the same node set idle (`robot-tasks bringup config/franka_stacking.yaml`, rtf 1, no
   goal, nobody watching): CPU per node over `--idle-seconds` after `--warmup` seconds.

    PYTHONPATH=. .venv/bin/python bench/episode_speed.py [--rtfs 0,1] [--executors events,single_threaded]
                                                         [--seed 0] [--repeats 3] [--idle-seconds 20]

Last, per executor kind, rtf 0 against rtf 1: how much less wall time the same episode
takes, and how much more sim time it spends. Faster than real time the sim's seconds would
keep passing while the nodes plan, detect and exchange messages in wall time; the sim's
`max_lead` bounds that (robot_tasks/nodes/sim/lead.py). `--leads 0.1,off` runs the rtf-0
episodes once per value, side by side in the same run ("default" = the node's own default,
"off" = no bound, rtf 0 before issue 37); the wall-time ratio is what a bench of episodes
gains, the sim-time ratio how far rtf 0's outcomes may drift from rtf 1's.

Where an rtf-0 episode's wall time goes: while the nodes plan, detect, decide and exchange
messages the sim waits for them, stepping at real time (its exit line counts those sim
seconds: LeadBound.summary in robot_tasks/nodes/sim/lead.py), and while it carries out their commands it steps at
full speed. Each rtf-0 episode prints the two parts and the speed of the second; the first
also passes at rtf 1, so the wall-time ratio can never exceed rtf 1's wall time over it.

Targets (issue 16): at rtf 0 the episode runs >= 3x faster than real time; a server with
no goal and no subscriber to its streams uses < 3 % of a core. Issue 37: at rtf 0 at most
1.3x the sim time of rtf 1, with >= 3x less wall time per episode. The table prints each next
to its measurement with PASS/MISS. On a shared machine the figures move with the load:
compare the columns of one run, not runs of different days.
"""
from __future__ import annotations

import argparse
import json
import os
import signal
import statistics
import subprocess
import sys
import threading
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from robot_tasks.nodes.sim.lead import paced_in_log  # noqa: E402
from robot_tasks.ros.node_main import DEFAULT_EXECUTOR, EXECUTOR_KINDS  # noqa: E402
from robot_tasks.testing.procfs import command_line, cpu_seconds, descendants  # noqa: E402

CLI = [sys.executable, "-m", "robot_tasks.cli"]
TARGET_SPEEDUP = 3.0          # sim s per wall s at rtf 0
TARGET_IDLE_SERVER_PERCENT = 3.0
TARGET_SIM_RATIO = 1.3        # rtf 0's sim time over rtf 1's (issue 37)
TARGET_WALL_RATIO = 3.0       # rtf 1's wall time over rtf 0's (issue 37)
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


def executor_env(kind: str) -> dict[str, str]:
    from robot_tasks.ros.node_main import EXECUTOR_ENV

    return {**os.environ, EXECUTOR_ENV: kind}


def config_with_lead(lead: str, folder: Path) -> list[str]:
    """`--config` arguments of the demo for one `--leads` value: the stacking config with the
    sim's max_lead set ("off" = -1, no bound); none for "default"."""
    if lead == "default":
        return []
    import yaml

    config = yaml.safe_load((REPO / "config" / "franka_stacking.yaml").read_text())
    config["sim"]["ros__parameters"]["max_lead"] = -1.0 if lead == "off" else float(lead)
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"franka_stacking_max_lead_{lead}.yaml"
    path.write_text(yaml.safe_dump(config, sort_keys=False))
    return ["--config", str(path)]


def run_episode(rtf: float, seed: int, out: Path, timeout: float, executor: str, lead: str = "default") -> dict:
    """One demo episode; CPU per node between the tree's first phase and its end."""
    out.mkdir(parents=True, exist_ok=True)
    demo = subprocess.Popen(CLI + ["demo", "franka_stacking", "--seed", str(seed), "--rtf", str(rtf),
                                   "--out", str(out), "--timeout", str(timeout)] + config_with_lead(lead, out),
                            env=executor_env(executor),
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
    paced = paced_seconds(reports[-1].parent / "nodes.log") if reports else None
    # the tree's run on both clocks: the run's whole wall time also counts starting the nodes
    row = {"rtf": rtf, "lead": lead, "executor": executor, "exit": demo.returncode, "success": bool(report.get("success")),
           "sim_s": report.get("sim_time_s"), "wall_s": report.get("tree_wall_time_s"),
           "run_wall_s": report.get("wall_time_s"), "paced_s": paced, "cpu": {},
           "tail": "".join(lines[-3:]).strip()}
    if "start" in marks and "end" in marks:
        (t0, c0), (t1, c1) = marks["start"], marks["end"]
        row["cpu"] = percent(c0, c1, t1 - t0)
    return row


def paced_seconds(nodes_log: Path) -> float | None:
    """Wall seconds the sim waited for the nodes at rtf 0, from its exit line in the run's
    nodes.log (robot_tasks/nodes/sim/lead.py); None without that line (rtf 1, or no bound)."""
    try:
        return paced_in_log(nodes_log.read_text(errors="replace"))
    except OSError:
        return None


def split_text(row: dict) -> str:
    """Where an rtf-0 episode's wall time went: waiting for the nodes (plan, detect, decide,
    talk: the sim paced at real time) and stepping at full speed, with the speed reached."""
    paced, sim, wall = row.get("paced_s"), row["sim_s"], row["wall_s"]
    if paced is None or not sim or not wall or wall <= paced:
        return ""
    return (f"; of its wall time {paced:.1f} s waiting for the nodes (paced at real time), "
            f"{wall - paced:.1f} s at full speed ({(sim - paced) / (wall - paced):.1f}x)")


def measure_idle(warmup: float, seconds: float, executor: str) -> dict[str, float]:
    """CPU per node of the stacking node set with no goal and no subscriber, at rtf 1."""
    from robot_tasks.ros.domains import pick_free_domain_id

    domain = pick_free_domain_id()
    bringup = subprocess.Popen(CLI + ["bringup", str(REPO / "config" / "franka_stacking.yaml"),
                                      "--domain-id", str(domain)], env=executor_env(executor),
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


def speed_of(row: dict) -> float:
    """Sim seconds per wall second of one episode (nan if it has no times)."""
    return row["sim_s"] / row["wall_s"] if row["sim_s"] and row["wall_s"] else float("nan")


def median_of(group: list[dict], key: str) -> float:
    """The median of one figure over a group of episodes (nan where an episode has none)."""
    return statistics.median(r[key] or float("nan") for r in group)


def median_cpu(group: list[dict]) -> dict[str, float]:
    """Per node, the median over episodes of its CPU % (episodes without a reading are left out)."""
    readings = [r["cpu"] for r in group if r["cpu"]]
    names = {name for cpu in readings for name in cpu}
    return {name: statistics.median(cpu.get(name, 0.0) for cpu in readings) for name in names}


def setting_name(rtf: float, lead: str) -> str:
    return f"rtf {rtf:g}" + ("" if lead == "default" else f" max_lead {lead}")


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rtfs", default="0,1", help="real-time factors of the episodes")
    parser.add_argument("--executors", default=DEFAULT_EXECUTOR,
                        help=f"executor kinds to compare (ROBOT_TASKS_EXECUTOR), e.g. {','.join(EXECUTOR_KINDS)}; "
                             f"default: the nodes' own default, {DEFAULT_EXECUTOR}")
    parser.add_argument("--leads", default="default",
                        help="the sim's max_lead for the rtf-0 episodes, side by side: sim s, 'default' "
                             "(the node's) or 'off' (no bound), e.g. 0.1,off")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--repeats", type=int, default=3,
                        help="episodes per real-time factor (interleaved); the table shows medians")
    parser.add_argument("--idle-seconds", type=float, default=20.0)
    parser.add_argument("--warmup", type=float, default=15.0, help="s after bringup before the idle window")
    parser.add_argument("--timeout", type=float, default=300.0, help="wall s per episode")
    parser.add_argument("--out", type=Path, default=Path("runs/episode_speed"))
    args = parser.parse_args(argv)
    rtfs = [float(x) for x in args.rtfs.split(",") if x]
    leads = [x for x in args.leads.split(",") if x]
    # (rtf, lead) per episode of a repeat: max_lead binds only at rtf 0
    settings = [(rtf, lead) for rtf in rtfs for lead in (leads if rtf == 0 else ["default"])]
    executors = [x for x in args.executors.split(",") if x]
    rows, idle = [], {}
    for executor in executors:
        for repeat in range(args.repeats):      # rtfs interleaved, so that load drifts hit both alike
            for rtf, lead in settings:
                print(f"{executor}: episode {repeat + 1}/{args.repeats} at {setting_name(rtf, lead)} ...", flush=True)
                rows.append(run_episode(rtf, args.seed, args.out / f"{executor}_rtf{rtf:g}_lead_{lead}",
                                        max(10.0, min(args.timeout, 900.0)), executor, lead))
                r = rows[-1]
                print(f"  {'SUCCESS' if r['success'] else 'FAILED'} tree: sim {r['sim_s']} s wall {r['wall_s']} s"
                      f" = {speed_of(r):.2f}x (whole run with the nodes' start and stop: {r['run_wall_s']} wall s)"
                      + split_text(r)
                      + ("" if r["success"] else f"\n  {r['tail']}"), flush=True)
        print(f"{executor}: idle node set for {args.idle_seconds:g} s after {args.warmup:g} s ...", flush=True)
        idle[executor] = measure_idle(max(5.0, args.warmup), max(2.0, min(args.idle_seconds, 120.0)), executor)

    groups = {}                                 # (executor, rtf, lead) -> its episodes
    for r in rows:
        groups.setdefault((r["executor"], r["rtf"], r["lead"]), []).append(r)
    columns = [(f"{executor[:6]} rtf{rtf:g}" + ("" if lead == "default" else f" l{lead}"), median_cpu(group))
               for (executor, rtf, lead), group in groups.items()]
    columns += [(f"{executor[:6]} idle", idle[executor]) for executor in executors]
    names = sorted({n for _, cpu in columns for n in cpu})
    print(f"\nCPU % of one core per node (episodes: while the tree ran, median of {args.repeats}; "
          "idle: no goal, nobody watching)")
    print(f"{'node':18s}" + "".join(f"{title:>14s}" for title, _ in columns) + "  idle target")
    for name in names:
        verdict = ""
        if name in SERVERS:
            verdict = (f"< {TARGET_IDLE_SERVER_PERCENT:g} %: " + ", ".join(
                f"{e} {'PASS' if idle[e].get(name, 0.0) < TARGET_IDLE_SERVER_PERCENT else 'MISS'}" for e in executors))
        print(f"{name:18s}" + "".join(f"{cpu.get(name, float('nan')):14.1f}" for _, cpu in columns) + f"  {verdict}")
    print(f"{'total':18s}" + "".join(f"{sum(cpu.values()):14.1f}" for _, cpu in columns))
    print()
    for (executor, rtf, lead), group in groups.items():
        speeds = [speed_of(r) for r in group]
        speed = statistics.median(speeds)
        cpu = median_cpu(group)
        cost = sum(cpu.values()) / 100.0 / speed if cpu and speed == speed else float("nan")
        wins = sum(r["success"] for r in group)
        sims, walls, runs = (median_of(group, key) for key in ("sim_s", "wall_s", "run_wall_s"))
        target = f"target >= {TARGET_SPEEDUP:g}x {'PASS' if speed >= TARGET_SPEEDUP else 'MISS'}" if rtf == 0 else ""
        print(f"{executor:16s} {setting_name(rtf, lead)}: {wins}/{len(group)} SUCCESS, the tree: median sim {sims:.1f} s in wall "
              f"{walls:.1f} s (whole run {runs:.1f} wall s), "
              f"{speed:.2f}x real time (each: {', '.join(f'{x:.2f}' for x in speeds)}), "
              f"{cost:.2f} CPU s per sim s  {target}")
        split = [r for r in group if split_text(r)]
        if split:
            paced = statistics.median(r["paced_s"] for r in split)
            free = statistics.median(r["wall_s"] - r["paced_s"] for r in split)
            fast = statistics.median((r["sim_s"] - r["paced_s"]) / (r["wall_s"] - r["paced_s"]) for r in split)
            print(f"{'':16s}   of the wall time (medians): {paced:.1f} s waiting for the nodes' next command "
                  f"(the sim paced at real time), {free:.1f} s at full speed, {fast:.1f}x real time")
    for executor in executors:                  # what a user waits for: wall time per episode
        real = groups.get((executor, 1.0, "default"))
        for lead in leads:
            fast = groups.get((executor, 0.0, lead))
            if fast and real:
                wall_ratio = median_of(real, 'wall_s') / median_of(fast, 'wall_s')
                sim_ratio = median_of(fast, 'sim_s') / median_of(real, 'sim_s')
                print(f"{executor:16s} {setting_name(0.0, lead)} against rtf 1: {wall_ratio:.2f}x less wall time per "
                      f"episode (target >= {TARGET_WALL_RATIO:g}x {'PASS' if wall_ratio >= TARGET_WALL_RATIO else 'MISS'}); "
                      f"{sim_ratio:.2f}x the sim time (target <= {TARGET_SIM_RATIO:g}x "
                      f"{'PASS' if sim_ratio <= TARGET_SIM_RATIO else 'MISS'}: sim seconds that pass while the nodes "
                      f"plan, detect and talk in wall time)")
    return 0 if all(r["success"] for r in rows) else 1


if __name__ == "__main__":
    sys.exit(main())
