"""Benchmark: time per IK solve and success rate of the five differential-IK variants of
robot_tasks.control and of PyBullet's own calculateInverseKinematics, on the same random
reachable Panda targets.

    PYTHONPATH=. .venv/bin/python bench/ik.py [--n 200] [--seed 0]

Targets are FK poses (position + orientation) of random joint configurations inside the
limits, tip above z = 0.05 m. Every solver starts from the same seed (the Panda's ready
pose). A solve succeeds when the returned joints are inside the limits and reach the
target within 1 mm and 0.01 rad — judged by Pinocchio FK here, not by the solver's own
claim. PyBullet runs with maxNumIterations=100, residualThreshold=1e-5 and its null-space
arguments (limits, ranges, rest pose = seed); a second row without them for comparison.
Our solvers run single-shot (restarts=0) to compare like with like; one extra row
shows the library default (dls with 4 restarts).
"""
from __future__ import annotations

import argparse
import os
import platform
import sys
import time

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from robot_tasks.control import IK_METHODS, ArmKinematics, IkConfig, IkSolver, panda_spec  # noqa: E402

POS_OK, ORI_OK = 1e-3, 1e-2
TIME_BUDGET_S = 50.0  # stop adding rows (and say so) rather than run past a minute


def make_targets(kin, count, rng):
    targets, configs = [], []
    while len(targets) < count:
        q = kin.random_configuration(rng)
        pose = kin.fk(q)
        if pose.position[2] > 0.05:
            targets.append(pose)
            configs.append(q)
    return targets, configs


def score(kin, q, target):
    pose = kin.fk(q)
    pos = float(np.linalg.norm(pose.position - target.position))
    ori = float(2.0 * np.arccos(min(1.0, abs(float(np.dot(pose.quaternion, target.quaternion))))))
    inside = kin.within_limits(q, 1e-6)
    return pos <= POS_OK and ori <= ORI_OK and inside, pos, ori, not inside


def run_ours(kin, targets, seed_q, config):
    solver = IkSolver(kin, config)
    rows = []
    for target in targets:
        began = time.perf_counter()
        result = solver.solve(target, seed_q)
        elapsed = time.perf_counter() - began
        rows.append((elapsed, *score(kin, result.q, target)))
    return rows


def run_pybullet(spec, kin, targets, seed_q, null_space=True):
    import pybullet as p
    client = p.connect(p.DIRECT)
    try:
        body = p.loadURDF(spec.urdf_path, [0, 0, 0], useFixedBase=True, physicsClientId=client)
        movable, tip = [], None
        for j in range(p.getNumJoints(body, physicsClientId=client)):
            info = p.getJointInfo(body, j, physicsClientId=client)
            if info[2] != p.JOINT_FIXED:
                movable.append((j, info[1].decode(), info[8], info[9]))
            if info[12].decode() == spec.tip_frame:
                tip = j
        names = [m[1] for m in movable]
        arm_cols = [names.index(n) for n in kin.joint_names]
        lower = [m[2] for m in movable]
        upper = [m[3] for m in movable]
        ranges = [hi - lo for lo, hi in zip(lower, upper)]
        rest = [0.0] * len(movable)
        for k, n in enumerate(kin.joint_names):
            rest[names.index(n)] = float(seed_q[k])
        for n, v in spec.locked_joints.items():
            rest[names.index(n)] = float(v)
        null_args = dict(lowerLimits=lower, upperLimits=upper, jointRanges=ranges,
                         restPoses=rest) if null_space else {}
        rows = []
        for target in targets:
            for (j, *_), value in zip(movable, rest):
                p.resetJointState(body, j, value, physicsClientId=client)
            began = time.perf_counter()
            solution = p.calculateInverseKinematics(
                body, tip, target.position.tolist(), target.quaternion.tolist(),
                maxNumIterations=100, residualThreshold=1e-5, physicsClientId=client,
                **null_args)
            elapsed = time.perf_counter() - began
            q = np.array(solution)[arm_cols]
            rows.append((elapsed, *score(kin, q, target)))
        return rows
    finally:
        p.disconnect(client)


def summarize(name, rows):
    arr = np.array(rows, dtype=float)
    t_ms = arr[:, 0] * 1e3
    return (f"{name:<26} {100 * arr[:, 1].mean():6.1f} {np.median(t_ms):8.2f} "
            f"{np.percentile(t_ms, 90):8.2f} {1e3 * np.median(arr[:, 2]):10.3f} "
            f"{1e3 * np.percentile(arr[:, 2], 90):10.2f} {np.median(arr[:, 3]):9.4f} "
            f"{100 * arr[:, 4].mean():8.1f}")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=200, help="number of random targets")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    spec = panda_spec()
    kin = ArmKinematics.from_spec(spec)
    seed_q = np.array(spec.home)
    targets, _ = make_targets(kin, args.n, np.random.default_rng(args.seed))
    print(f"Panda IK, {len(targets)} random reachable pose targets (seed {args.seed}), "
          f"start = ready pose; success = inside limits, <= {POS_OK * 1e3:.0f} mm and "
          f"<= {ORI_OK} rad")
    print(f"python {platform.python_version()}, {os.cpu_count()} cpu, "
          f"load {os.getloadavg()[0]:.2f}")
    header = (f"{'solver':<26} {'succ%':>6} {'med ms':>8} {'p90 ms':>8} "
              f"{'pos med mm':>10} {'pos p90 mm':>10} {'ori med':>9} {'lim out%':>8}")
    print(header)
    print("-" * len(header))
    started = time.perf_counter()
    runs = [(f"{m} (restarts=0)", lambda m=m: run_ours(kin, targets, seed_q,
                                                       IkConfig(method=m, restarts=0)))
            for m in IK_METHODS]
    runs.append(("pybullet IK (null space)", lambda: run_pybullet(spec, kin, targets, seed_q)))
    runs.append(("pybullet IK (plain)", lambda: run_pybullet(spec, kin, targets, seed_q, False)))
    runs.append(("dls (default, restarts=4)", lambda: run_ours(kin, targets, seed_q, IkConfig())))
    for name, run in runs:
        if time.perf_counter() - started > TIME_BUDGET_S:
            print(f"{name:<26} skipped: time budget of {TIME_BUDGET_S:.0f} s used up")
            continue
        print(summarize(name, run()), flush=True)
    print(f"total {time.perf_counter() - started:.1f} s")


if __name__ == "__main__":
    main()
