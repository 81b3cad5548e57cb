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
"""
from __future__ import annotations

import argparse
import os
import sys
import time

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from robot_tasks.control import (ArmKinematics, Box, CollisionChecker, JointLimits,  # noqa: E402
                                 Pose, check_trajectory, default_limits_path,
                                 load_limits_file, make_trajectory, panda_spec,
                                 plan_joint_path, ur10_spec)
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


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--n", type=int, default=8)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
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
