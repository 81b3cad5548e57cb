"""Benchmark: the old velocity-only trajectory timing against the time-optimal, jerk-limited
one (robot_tasks.control.time_optimal), side by side on the same seeded planned paths.

    PYTHONPATH=. .venv/bin/python bench/trajectories.py [--n 8] [--seed 0]

For the Panda and the UR10: `n` collision-free goals drawn from the seed, an RRT-Connect path
(robot_tasks.control.plan_joint_path, around a table / the floor) from the home pose to each,
kept when it bends (more than two waypoints), and a straight joint-space line to each goal
(what FREE and joint goals send; it may cross the pillar, only its timing matters here). Each path is timed
the old way (make_trajectory with ramp_time 0.2, the arm server's former default) and the
new way (limits = URDF + config/limits/<robot>.yaml), both at velocity_scaling 0.5 and the
new one at acceleration_scaling 0.5 (the arm server's defaults). Printed per robot and kind:
total duration, the worst velocity / acceleration / jerk ratio over all joints and paths
(robot_tasks.control.check_trajectory, control period 1 ms: 1.0 = at the limit), and the
median compute time per trajectory (the first new one, which imports toppra, is excluded).

    PYTHONPATH=. .venv/bin/python bench/trajectories.py --episodes [--out runs/bench_trajectories]
    PYTHONPATH=. .venv/bin/python bench/trajectories.py --runs RUN_FOLDER ...

--episodes: whole episodes instead, what the arm server really sent. A franka_stacking
(seed 2) and a ur10_palletizing (seed 0) episode, each with the arm server's old timing
(`trajectory_timing: velocity_ramp`, set in a copy of the demo's bringup YAML) and with
the new one, run one after another by `robot-tasks demo` (loopback DDS, each bounded by its
--timeout). Every trajectory of each run is read from its bag and checked against the
robot's own limits, unscaled, as test/demo's e2e tests do (robot_tasks.demo.sent_trajectories;
BOUNDED goals: velocity only). Printed per episode: the demo's verdict, sim time, the
trajectories' count and summed duration, and the worst velocity / acceleration / jerk ratio
with its joint. --runs prints the same for finished run folders.
"""
from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from robot_tasks.control import (  # noqa: E402
    ArmKinematics,
    Box,
    CollisionChecker,
    JointLimits,
    Pose,
    check_trajectory,
    default_limits_path,
    load_limits_file,
    make_trajectory,
    panda_spec,
    plan_joint_path,
    ur10_spec,
)
from robot_tasks.control.time_optimal import warm_up  # noqa: E402

VS, AS = 0.5, 0.5
# A table / the floor, and a pillar in front of the arm that many straight moves would hit,
# so RRT-Connect's paths bend around it.
OBSTACLES = {"panda": [Box("table", (1.5, 1.0, 0.05), Pose([0.5, 0.0, -0.03])),
                       Box("pillar", (0.12, 0.12, 0.8), Pose([0.45, 0.0, 0.4]))],
             "ur10": [Box("floor", (4.0, 4.0, 0.02), Pose([0.0, 0.0, -0.52])),
                      Box("pillar", (0.2, 0.2, 1.6), Pose([0.8, 0.0, 0.3]))]}


def paths(robot, spec, kin, n, seed):
    checker = CollisionChecker.from_urdf_file(kin, spec.urdf_path, spec.package_dirs,
                                              OBSTACLES[robot], padding=0.01)
    rng = np.random.default_rng(seed)
    home = np.array(spec.home)
    planned, lines = [], []
    while len(planned) < n:
        goal = np.clip(home + rng.uniform(-1.2, 1.2, kin.dof), kin.lower + 0.05, kin.upper - 0.05)
        if checker.describe(goal) != "valid":
            continue
        if checker.describe(home) != "valid":
            raise SystemExit(f"{robot}: the home pose collides with the bench's obstacles")
        plan = plan_joint_path(checker, home, goal, time_limit=2.0)
        if plan.success and len(plan.path) > 2:   # bent around the pillar
            planned.append(np.asarray(plan.path))
            lines.append(np.array([home, goal]))
    return {"planned": planned, "line": lines}


def time_all(batch, kin, limits, new: bool):
    durations, reports, compute = [], [], []
    for path in batch:
        began = time.perf_counter()
        if new:
            traj = make_trajectory(path, kin.joint_names, kin.velocity_limits, VS,
                                   limits=limits, acceleration_scaling=AS)
        else:
            traj = make_trajectory(path, kin.joint_names, kin.velocity_limits, VS, ramp_time=0.2)
        compute.append(time.perf_counter() - began)
        durations.append(traj.duration)
        reports.append(check_trajectory(traj, limits.scaled(VS, AS)))
    worst = {k: max(r.worst_of(k) for r in reports) for k in ("velocity", "acceleration", "jerk")}
    return sum(durations), worst, float(np.median(compute)), sum(len(p) for p in batch)


REPO = Path(__file__).resolve().parents[1]
# (demo, seed, wall-clock bound of its run in s): the e2e tests' episodes
EPISODES = (("franka_stacking", 2, 300), ("ur10_palletizing", 0, 1100))
TIMINGS = ("velocity_ramp", "time_optimal")


def run_episode(demo: str, seed: int, timeout: float, timing: str, out: Path) -> Path | None:
    """One `robot-tasks demo` run with the arm server's `trajectory_timing`; its run folder."""
    import yaml

    config = yaml.safe_load((REPO / "config" / f"{demo}.yaml").read_text())
    config["arm_server"]["ros__parameters"]["trajectory_timing"] = timing
    folder = out / timing
    (folder / "config").mkdir(parents=True, exist_ok=True)
    copy = folder / "config" / f"{demo}.yaml"      # the same name: the run's params/ copy keeps it
    copy.write_text(yaml.safe_dump(config, sort_keys=False))
    argv = [sys.executable, "-m", "robot_tasks.cli", "demo", demo, "--seed", str(seed), "--out", str(folder),
            "--config", str(copy), "--timeout", str(timeout)]
    print(f"# {demo} seed {seed}, {timing} ...", flush=True)
    subprocess.run(argv, cwd=REPO, env={**os.environ, "PYTHONPATH": str(REPO)}, stdout=subprocess.DEVNULL,
                   timeout=timeout + 200, check=False)
    runs = sorted(folder.glob(f"{demo}_seed{seed}_none_*"))
    return runs[-1] if runs else None


def episode_row(run_dir: Path) -> str:
    import json

    from robot_tasks.demo.sent_trajectories import (
        arm_server_parameters,
        audit_trajectories,
        read_sent_trajectories,
        server_limits,
    )

    report = json.loads((run_dir / "report.json").read_text())
    params = arm_server_parameters(run_dir)
    trajectories = read_sent_trajectories(run_dir)
    audit = audit_trajectories(trajectories, server_limits(run_dir))
    cells = []
    for kind in ("velocity", "acceleration", "jerk"):
        ratio, _, joint = audit.worst(kind)
        cells.append(f"{ratio:8.3f} {joint:19}")
    bounded = f" ({sum(audit.bounded)} B)" if any(audit.bounded) else ""
    return (f"{report['scene']:17} {params.get('robot', 'panda'):6} {params.get('trajectory_timing', 'time_optimal'):13} "
            f"{'ok' if report.get('success') else 'FAIL':4} {report.get('sim_time_s', float('nan')):7.1f} "
            f"{len(trajectories):5d}{bounded:6} {sum(t.duration for t in trajectories):7.1f} " + " ".join(cells))


def episodes(run_dirs) -> None:
    print("ratios to the robot's own limits (URDF + config/limits/<robot>.yaml, unscaled), worst over "
          "joints and trajectories, 1.0 = at the limit (jerk steps per 1 ms control period); "
          "B = BOUNDED, velocity only")
    print(f"{'demo':17} {'robot':6} {'timing':13} {'run':4} {'sim s':>7} {'traj':>5}{'':6} {'traj s':>7} "
          f"{'v ratio':>8} {'(joint)':19} {'a ratio':>8} {'(joint)':19} {'j ratio':>8} {'(joint)':19}")
    for run_dir in run_dirs:
        if run_dir is None:
            print("(an episode left no run folder)")
        else:
            print(episode_row(run_dir), flush=True)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--n", type=int, default=8)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--episodes", action="store_true",
                        help="run stacking and palletizing episodes with the old and the new timing")
    parser.add_argument("--out", type=Path, default=None, help="--episodes: parent of the run folders")
    parser.add_argument("--runs", type=Path, nargs="+", help="check these finished run folders instead")
    args = parser.parse_args()
    if args.runs:
        episodes(args.runs)
        return 0
    if args.episodes:
        out = args.out or Path(tempfile.mkdtemp(prefix="bench_trajectories_"))
        runs = [run_episode(demo, seed, timeout, timing, out)
                for demo, seed, timeout in EPISODES for timing in TIMINGS]
        episodes(runs)
        print(f"run folders under {out}")
        return 0
    warm_up()
    print(f"velocity_scaling {VS}, acceleration_scaling {AS}; ratios: worst over joints and "
          f"paths, 1.0 = at the limit (jerk steps per 1 ms control period)")
    print(f"{'robot':6} {'paths':8} {'timing':7} {'total s':>8} {'v ratio':>8} {'a ratio':>9} "
          f"{'j ratio':>9} {'ms/traj':>8}")
    for robot, spec in (("panda", panda_spec()), ("ur10", ur10_spec())):
        kin = ArmKinematics.from_spec(spec)
        limits = JointLimits.combine(kin.joint_names, kin.velocity_limits,
                                     load_limits_file(default_limits_path(robot)))
        for kind, batch in paths(robot, spec, kin, args.n, args.seed).items():
            for label, new in (("old", False), ("new", True)):
                total, worst, ms, _ = time_all(batch, kin, limits, new)
                print(f"{robot:6} {kind + f' x{len(batch)}':8} {label:7} {total:8.2f} "
                      f"{worst['velocity']:8.3f} {worst['acceleration']:9.3f} "
                      f"{worst['jerk']:9.3f} {ms * 1e3:8.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
