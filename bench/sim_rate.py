"""Step rate of the simulation: raw PyBullet vs the sim node, plus the camera's cost per frame.

    PYTHONPATH=. .venv/bin/python bench/sim_rate.py [--steps 2000] [--repeats 5] [--all-scenes] [--camera-only]

Prints, for `franka_stacking` (and every scene with --all-scenes):
* raw PyBullet:  p.stepSimulation() in a bare loop (the ceiling);
* World.step():  the library loop the node runs (controllers, grippers, updaters + step);
* sim node:      the node's real stepping loop (robot_tasks.nodes.sim), in-process over
                 loopback DDS, publishing joint_states and /clock at 100 Hz and ground truth
                 at 10 Hz of sim time, camera off, real_time_factor 0; measured alternating
                 with raw stepping *in the node's own world*, by wall time and by CPU time
                 (the latter is what counts on a shared machine); target node >= 80% of raw;
and the scene camera's CPU cost per frame at each scene config's size: one full render
against the cached static backdrop plus the moving bodies (robot_tasks/sim/backdrop.py),
alternating frame by frame. With --controller-state, also the
banana_bowl node loop with and without the per-step controller states (two
JointControllerState messages per step, what a demonstration recording needs).
Numbers are medians over repeats; the machine may be shared, so compare side by side.
"""
from __future__ import annotations

import argparse
import importlib
import importlib.util
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import pybullet as p  # noqa: E402

from robot_tasks.process import load_plan  # noqa: E402
from robot_tasks.sim import World  # noqa: E402
from robot_tasks.sim.scenes import scene_names  # noqa: E402

SETTLE_STEPS = 200
REPO = Path(__file__).resolve().parents[1]


def step_rates(scene: str, steps: int, repeats: int) -> tuple[float, float]:
    """(raw p.stepSimulation, World.step) steps/s, alternating in one settled world.

    Alternating repeats in the same world keeps the comparison fair: objects that fall
    asleep speed both loops up alike.
    """
    with World(scene=scene, seed=0) as world:
        world.step(SETTLE_STEPS)
        raw, lib = [], []
        for _ in range(repeats):
            t0 = time.perf_counter()
            for _ in range(steps):
                p.stepSimulation(physicsClientId=world.client)
            raw.append(steps / (time.perf_counter() - t0))
            t0 = time.perf_counter()
            world.step(steps)
            lib.append(steps / (time.perf_counter() - t0))
        return statistics.median(raw), statistics.median(lib)


CAMERA_SCENES = ("franka_stacking", "franka_pyramid", "ur10_palletizing", "banana_bowl")


def camera_size(scene: str) -> tuple[int, int]:
    """The frame size config/<scene>.yaml gives the sim node."""
    sim = load_plan(REPO / "config" / f"{scene}.yaml").parameters("sim")
    return int(sim["camera_width"]), int(sim["camera_height"])


def camera_costs(scene: str, frames: int) -> tuple[float, float, int]:
    """(plain pass, backdrop composite) median CPU ms per frame, and the frame's pixels.

    Alternating frame by frame in one settled world, the robots' joints nudged between
    frames so that every composite has a new foreground (robot_tasks/sim/backdrop.py)."""
    width, height = camera_size(scene)
    with World(scene=scene, seed=0) as world:
        world.step(SETTLE_STEPS)
        cam = world.camera("scene").resized(width, height)
        cam.capture()                                   # warm-up, and the backdrop drawn once
        plain, layered = [], []
        for k in range(frames):
            for robot in world.robots.values():
                robot.reset_joints({name: 0.02 * ((k % 5) - 2) for name in list(robot.limits)[:2]})
            t0 = time.process_time()
            cam._render(False)
            t1 = time.process_time()
            cam.capture()
            layered.append(time.process_time() - t1)
            plain.append(t1 - t0)
        return 1000 * statistics.median(plain), 1000 * statistics.median(layered), width * height


def print_camera_costs(frames: int) -> None:
    print("scene camera, RGB-D by ER_TINY_RENDERER at each config's size, CPU ms per frame (median):")
    for name in CAMERA_SCENES:
        plain, layered, pixels = camera_costs(name, frames)
        print(f"  {name:18s} {pixels // 1000:4d} kpx  one full pass {plain:6.1f}  static backdrop + moving bodies "
              f"{layered:6.1f}  ({plain / layered:.2f}x)")


# ---------------------------------------------------------------------------------------
# The sim-node variant of the measurement, same scene, same run.  The node module exposes
#     bench_step_rate(scene, steps, joint_state_rate=100.0) -> steps per wall second
# and robot_tasks.nodes.sim.bench.bench_rates(...) gives raw and node rates measured
# alternately in the node's world (wall and CPU), used here for the ratio.
# ---------------------------------------------------------------------------------------
TARGET = 0.80


def node_step_rates(scene: str, steps: int, repeats: int, joint_state_rate: float = 100.0,
                    controller_state: bool = False):
    module = "robot_tasks.nodes.sim"
    if importlib.util.find_spec(module) is None:
        return None
    importlib.import_module(module)                       # the node module must import
    from robot_tasks.nodes.sim.bench import bench_rates

    return bench_rates(scene, steps, joint_state_rate, repeats, controller_state=controller_state)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--steps", type=int, default=2000)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--frames", type=int, default=20)
    parser.add_argument("--camera-only", action="store_true", help="only the camera's cost per frame")
    parser.add_argument("--all-scenes", action="store_true", help="also print every scene's step rate")
    parser.add_argument("--controller-state", action="store_true",
                        help="also: banana_bowl's node loop with and without per-step controller states")
    args = parser.parse_args(argv)

    if args.camera_only:
        print_camera_costs(args.frames)
        return 0
    scene = "franka_stacking"
    raw, lib = step_rates(scene, args.steps, args.repeats)
    node = node_step_rates(scene, args.steps, args.repeats)
    print(f"{scene}: {args.steps} steps x {args.repeats} repeats at 240 Hz (median)")
    print(f"  raw PyBullet stepSimulation : {raw:9.0f} steps/s")
    print(f"  World.step (library loop)   : {lib:9.0f} steps/s  ({100 * lib / raw:.0f}% of raw)")
    if node is None:
        print("  sim node: not built (robot_tasks.nodes.sim)")
    else:
        print("  sim node loop, joint_states + /clock 100 Hz, objects 10 Hz, camera off, rtf 0,")
        print("  alternating with raw stepping in the node's own world:")
        for how, r, n in (("wall", node.raw_wall, node.node_wall), ("CPU ", node.raw_cpu, node.node_cpu)):
            verdict = "PASS" if n >= TARGET * r else "MISS"
            print(f"    by {how} time: raw {r:9.0f}  node {n:9.0f} steps/s  "
                  f"ratio {n / r:.2f}  {verdict} (target >= {TARGET:.2f})")
    print_camera_costs(args.frames)
    if args.controller_state and node is not None:
        print("banana_bowl sim node loop (CPU time), per-step controller states off vs on:")
        for on in (False, True):
            rates = node_step_rates("banana_bowl", args.steps, args.repeats, controller_state=on)
            print(f"  controller_state {'on ' if on else 'off'}: node {rates.node_cpu:8.0f} steps/s "
                  f"({1e6 / rates.node_cpu:6.1f} us/step), raw {rates.raw_cpu:8.0f} steps/s")
    if args.all_scenes:
        print("all scenes (median steps/s at 240 Hz, robots idle):")
        for name in scene_names():
            raw_s, lib_s = step_rates(name, args.steps, args.repeats)
            print(f"  {name:18s} raw {raw_s:8.0f}   World.step {lib_s:8.0f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
