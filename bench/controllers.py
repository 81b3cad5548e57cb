"""Benchmark: the compliant controllers in PyBullet — tracking and force error per
controller and impedance mode, and the cost of one compute() against the control period.

    PYTHONPATH=. .venv/bin/python bench/controllers.py [--plot runs/bench/franka_press.png]

Rows (every one a short physics run in a fresh world, torque loop at 960 Hz = a 240 Hz world
with 4 physics sub-steps; the press scene picks 720 Hz = 3 sub-steps itself):
- joint_impedance fixed / variable_kp / variable (kp 150, ζ 1, inertial + gravity
  compensation): the target glides ±0.2 rad on every joint in 1 s (smoothstep) and holds
  1 s; the worst joint lag while gliding and the error once settled (target < 1e-3 rad);
- osc fixed / variable_kp / variable (full decoupling, kp 150) and fixed with partial / no
  decoupling: the tip target glides 10 cm in 1 s and holds 1 s; the tip lag while gliding
  and the error once settled (target < 2 mm);
- hybrid_press variable_kp (franka_press): a guarded approach with "osc" at 2 cm/s, then
  10 N into the 45° wall at three in-plane poses (press_episode.run_press); the contact
  spike at touch-down,
  the settled normal-force error by contact points and by the F/T sensor (target < 1 N),
  the settled in-plane error (target < 5 mm) and the lag while the target glides.
Cost: the median of 5 batches of 1000 compute() calls on the run's last state, printed with
the control period and the share of it one call takes. The press run is also drawn (force,
in-plane position and in-plane error against time) to a PNG. Bounded: a row that would start
after --budget seconds (default 100) is skipped and reported as skipped.
"""
from __future__ import annotations

import argparse
import os
import statistics
import sys
import time

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from robot_tasks.control.compliance import (  # noqa: E402
    JointImpedanceConfig,
    JointImpedanceController,
    OperationalSpaceConfig,
    OperationalSpaceController,
)
from robot_tasks.sim import World  # noqa: E402
from robot_tasks.sim.compliant import arm_dynamics  # noqa: E402
from robot_tasks.sim.controller_switch import add_compliant_controller  # noqa: E402
from robot_tasks.sim.press_episode import run_press, smoothstep  # noqa: E402
from robot_tasks.sim.robots import make_panda  # noqa: E402
from robot_tasks.sim.scenes.common import add_plane  # noqa: E402
from robot_tasks.tasks.press.plot import draw_press  # noqa: E402

WAYPOINTS = [(0.05, 0.0), (0.0, 0.06), (-0.04, -0.04)]
JOINT_STEP = np.array([0.2, -0.2, 0.2, 0.2, -0.2, 0.2, 0.2])
TIP_OFFSET = np.array([0.06, -0.06, -0.05])            # |.| = 0.099 m
KP, ZETA = 150.0, 1.0


def compute_cost_us(law, state, calls: int = 1000, batches: int = 5) -> float:
    times = []
    for _ in range(batches):
        t0 = time.perf_counter()
        for _ in range(calls):
            law.compute(state)
        times.append((time.perf_counter() - t0) / calls)
    return statistics.median(times) * 1e6


def torque_world():
    world = World(physics_substeps=4)
    add_plane(world)
    make_panda(world, "panda", inertia_from_file=True)
    world.step(10)
    return world, world.robot("panda")


GLIDE, HOLD = 1.0, 1.0      # s: the target glides (smoothstep) to the goal, then holds


def run_law(make_law, prepare, target_at, error_of):
    """Attach, switch, let the target glide and hold; return (world, arm, law, lag, final).

    `prepare(law, arm)` fixes the start and goal, `target_at(law, s)` commands the target at
    glide fraction s in [0, 1], `error_of(arm, law, s)` measures the error to that target.
    """
    world, arm = torque_world()
    law = make_law(arm_dynamics(arm))
    add_compliant_controller(arm, "bench", law)
    arm.controllers.switch("bench")
    prepare(law, arm)
    glide = int(round(GLIDE / world.time_step))
    lag = 0.0
    for k in range(1, glide + 1):
        s = smoothstep(k / glide)
        target_at(law, s)
        world.step()
        lag = max(lag, error_of(arm, law, s))
    world.step(int(round(HOLD / world.time_step)))
    return world, arm, law, lag, error_of(arm, law, 1.0)


def _row(controller, mode, world, arm, law, result, ok):
    row = dict(controller=controller, mode=mode, result=result, verdict="PASS" if ok else "MISS",
               cost=compute_cost_us(law, arm.controllers.current().last_state),
               period=1e6 / world.physics_rate)
    world.close()
    return row


def joint_impedance_row(mode: str) -> dict:
    gains = {"fixed": [], "variable_kp": [KP] * 7, "variable": [KP] * 7 + [ZETA] * 7}[mode]
    path = {}

    def make(dyn):
        return JointImpedanceController(JointImpedanceConfig(
            impedance_mode=mode, inertial_compensation=True, gravity_compensation=True,
            stiffness=KP, damping_ratio=ZETA), dyn)

    def prepare(law, arm):
        path["start"] = arm.positions(arm.arm_joint_names)

    def target(s):
        return path["start"] + s * JOINT_STEP

    def error_of(arm, law, s):
        return float(np.max(np.abs(arm.positions(arm.arm_joint_names) - target(s))))

    world, arm, law, lag, final = run_law(
        make, prepare, lambda law, s: law.set_command(np.concatenate([target(s), gains])), error_of)
    return _row("joint_impedance", mode, world, arm, law,
                f"joint lag {lag:.4f} rad gliding, {final:.5f} rad settled", final < 1e-3)


def osc_row(mode: str, decoupling: str) -> dict:
    gains = {"fixed": [], "variable_kp": [KP] * 6, "variable": [KP] * 6 + [ZETA] * 6}[mode]
    path = {}

    def make(dyn):
        return OperationalSpaceController(OperationalSpaceConfig(
            impedance_mode=mode, inertial_dynamics_decoupling=decoupling != "none",
            partial_inertial_dynamics_decoupling=decoupling == "partial",
            gravity_compensation=True, nullspace_control="position",
            motion_stiffness_task=KP if decoupling != "none" else 1000.0), dyn)

    def prepare(law, arm):
        q0 = arm.positions(arm.arm_joint_names)
        law.set_nullspace_target(q0)
        path["tip"] = law.dynamics.kinematics.fk(q0)

    def target(s):
        return path["tip"].position + s * TIP_OFFSET

    def command(law, s):
        law.set_command(np.concatenate([target(s), path["tip"].quaternion, gains]))

    def error_of(arm, law, s):
        return float(np.linalg.norm(np.array(arm.ee_pose()[0]) - target(s)) * 1000)

    world, arm, law, lag, final = run_law(make, prepare, command, error_of)
    label = mode if decoupling == "full" else f"{mode}, {decoupling} decoupling"
    if decoupling == "none":
        label += " (kp 1000 N/m)"
    return _row("osc", label, world, arm, law,
                f"tip lag {lag:.1f} mm gliding 10 cm, {final:.2f} mm settled", final < 2.0)


def press_row(plot_path: str | None) -> dict:
    with World(scene="franka_press") as world:
        log = run_press(world, WAYPOINTS, force=10.0)
        shell = world.robot("panda").controllers.current()
        cost = compute_cost_us(shell.law, shell.last_state)
        period = 1e6 / world.physics_rate
    a = log.arrays()
    force_err, sensed_err, plane_err = 0.0, 0.0, 0.0
    for phase in range(len(WAYPOINTS)):
        settled = log.settled(phase, last=0.4)
        force_err = max(force_err, np.max(np.abs(a["contact_force"][settled] - 10.0)))
        sensed_err = max(sensed_err, np.max(np.abs(a["sensed_force"][settled] - 10.0)))
        plane_err = max(plane_err, np.max(np.linalg.norm(
            a["tip"][settled, :2] - a["target"][settled], axis=1)))
    sliding = (a["phase"] >= 0) & ~a["holding"]
    lag = np.max(np.linalg.norm(a["tip"][sliding, :2] - a["target"][sliding], axis=1))
    ok = force_err < 1.0 and sensed_err < 1.0 and plane_err < 5e-3
    if plot_path:
        print(f"plot: {draw_press(log, plot_path)}")
    return dict(controller="hybrid_press", mode="variable_kp",
                result=(f"touch-down peak {a['contact_force'].max():.0f} N; "
                        f"|F-10| {force_err:.2f} N contact, {sensed_err:.2f} N F/T; "
                        f"in-plane {plane_err * 1000:.2f} mm settled, {lag * 1000:.1f} mm lag sliding"),
                verdict="PASS" if ok else "MISS", cost=cost, period=period)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--plot", default="runs/bench/franka_press.png",
                        help="PNG of the press run ('' for none)")
    parser.add_argument("--budget", type=float, default=100.0,
                        help="seconds after which no new row starts")
    args = parser.parse_args(argv)
    start = time.perf_counter()
    jobs = [(f"joint_impedance {m}", lambda m=m: joint_impedance_row(m))
            for m in ("fixed", "variable_kp", "variable")]
    jobs += [(f"osc {m}", lambda m=m: osc_row(m, "full")) for m in ("fixed", "variable_kp", "variable")]
    jobs += [(f"osc fixed {d}", lambda d=d: osc_row("fixed", d)) for d in ("partial", "none")]
    jobs += [("hybrid_press", lambda: press_row(args.plot or None))]
    rows, skipped = [], []
    for name, job in jobs:
        if time.perf_counter() - start > args.budget:
            skipped.append(name)
            continue
        rows.append(job())
    print(f"\n{'controller':16} {'mode':36} {'compute µs':>10} {'period µs':>9} {'share':>6}  "
          f"{'verdict':7} result")
    for r in rows:
        print(f"{r['controller']:16} {r['mode']:36} {r['cost']:10.1f} {r['period']:9.0f} "
              f"{r['cost'] / r['period']:6.1%}  {r['verdict']:7} {r['result']}")
    for name in skipped:
        print(f"skipped (over the {args.budget:g} s budget): {name}")
    print(f"\ntotal {time.perf_counter() - start:.1f} s wall")
    return 0


if __name__ == "__main__":
    sys.exit(main())
