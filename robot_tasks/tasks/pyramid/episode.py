"""The two-Panda pyramid demo as a DemoTask (run by robot_tasks/demo/runner.py).

    robot-tasks demo franka_pyramid --seed 3 --disturb drag --out runs/

Phases are each robot's motion and gripper steps (both robots' leaves have the same
names); a recovery is a check raising the robot's `needs_recovery` flag, or the restage
after it; `--disturb` drags or drops a reserved cube (pyramid_disturbance.py); the end
is graded per robot on the sim's ground truth: three cubes stacked on its goal
(report["stacks"]); `follow` (pyramid_bumps.py, motion_overlap.py) adds each robot's tree
result, the fraction of the time both arms moved at once, and the cubes bumped: moved
while nobody owned them, with what each arm was doing then (report["bumps"]).
"""
from __future__ import annotations

import math

from robot_tasks.tasks.episode import DemoTask, positions_of, sent_trajectory_topic
from robot_tasks.tasks.pyramid.bumps import BumpWatch
from robot_tasks.tasks.pyramid.disturbance import PyramidDisturbanceRule
from robot_tasks.tasks.pyramid.motion_overlap import MotionOverlap
from robot_tasks.tasks.stacking.grade import judge_stack

GOALS = {"panda_1": (0.46, 0.28), "panda_2": (0.54, -0.28)}
STACK_SIZE = 3
ON_GOAL = 0.04      # m from the goal (x, y) for a cube to count as on that robot's stack
PHASES = ("approach", "grasp_down", "grasp", "lift", "place_approach", "place", "release", "retract", "restage")
RECOVERIES = {("flag_moved", "SUCCESS"): "cube moved during the approach: recovering",
              ("flag_dropped", "SUCCESS"): "cube dropped while carried: recovering",
              ("flag_off_stack", "SUCCESS"): "cube seen off the stack after the release: recovering",
              ("restage", "SUCCESS"): "restaged above the cube: trying the same reservation again"}
FLAGS = tuple(name for name, _status in RECOVERIES if name.startswith("flag_"))   # Scripts raising needs_recovery


def judge_stacks(positions: dict, goals: dict = GOALS, size: int = STACK_SIZE) -> list[dict]:
    """Per robot: the cubes on its goal, bottom first, each judged like a stacking level."""
    rows = []
    for robot, goal in goals.items():
        near = sorted((p[2], name) for name, p in positions.items()
                      if name.endswith("_cube") and math.hypot(p[0] - goal[0], p[1] - goal[1]) < ON_GOAL)
        order = [name for _z, name in near]
        levels = judge_stack(positions, order) if order else []
        ok = len(order) == size and all(level["ok"] for level in levels)
        rows.append({"robot": robot, "goal": list(goal), "stack": order, "ok": ok, "levels": levels})
    return rows


def grade(poses: dict, _first_poses: dict, _counted: list):
    rows = judge_stacks(positions_of(poses))
    summary = "; ".join(f"{r['robot']}: {len(r['stack'])} cubes {'ok' if r['ok'] else 'NOT ok'}" for r in rows)
    return "stacks", rows, all(r["ok"] for r in rows), summary


def grade_solo(poses: dict, _first_poses: dict, _counted: list):
    """The one-robot baseline (FrankaPyramidSolo): all six cubes on panda_1's stack."""
    rows = judge_stacks(positions_of(poses), {"panda_1": GOALS["panda_1"]}, size=6)
    return "stacks", rows, rows[0]["ok"], f"panda_1 alone: {len(rows[0]['stack'])} cubes {'ok' if rows[0]['ok'] else 'NOT ok'}"


# each Panda's arm server (config/franka_pyramid.yaml: arm_server_1, arm_server_2)
ARM_SERVERS = ("arm_server_1", "arm_server_2")
SENT_TRAJECTORIES = tuple(sent_trajectory_topic(server) for server in ARM_SERVERS)

PYRAMID = DemoTask(name="franka_pyramid", tree_id="FrankaPyramid", phases=PHASES, counted="release",
                   counted_as="placed", recoveries=RECOVERIES, make_rule=PyramidDisturbanceRule, grade=grade,
                   follow=lambda: BumpWatch(flag_names=FLAGS), bag_topics=SENT_TRAJECTORIES)

# One Panda moving all six cubes alone, from the same tree file: the bench's baseline.
PYRAMID_SOLO = DemoTask(name="franka_pyramid", tree_id="FrankaPyramidSolo", phases=PHASES, counted="release",
                        counted_as="placed", recoveries=RECOVERIES, make_rule=PyramidDisturbanceRule,
                        grade=grade_solo, follow=lambda: BumpWatch(MotionOverlap(robots=("panda_1",)), FLAGS),
                        bag_topics=SENT_TRAJECTORIES)
