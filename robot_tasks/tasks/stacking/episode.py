"""The Franka stacking demo as a DemoTask (run by robot_tasks/demo/runner.py).

    robot-tasks demo franka_stacking --seed 3 --disturb knock --out runs/

Phases are the eight motion/gripper steps of each cube; a recovery is one of the tree's
three reactive checks failing; `--disturb` drags, drops or knocks (disturbance.py); the
end is graded by judge_stack (grade.py) on the sim's ground truth: report["cubes"].
"""
from __future__ import annotations

from robot_tasks.tasks.episode import SENT_TRAJECTORY_TOPIC, DemoTask, positions_of
from robot_tasks.tasks.stacking.disturbance import StackingDisturbanceRule
from robot_tasks.tasks.stacking.grade import judge_stack

TREE_ID = "FrankaStacking"
PHASES = ("pre_grasp", "approach", "grasp", "lift", "transport", "lower", "release", "retract")
RECOVERIES = {("pickup_resync", "FAILURE"): "pickup resync: the cube moved, restarting from pre-grasp",
              ("HoldingCube", "FAILURE"): "drop detected: abandoning the transfer",
              ("StackIntact", "FAILURE"): "stack invalid: returning the held cube to its spawn"}


def grade(poses: dict, _first_poses: dict, _counted: list):
    cubes = judge_stack(positions_of(poses))
    summary = ", ".join(f"{c['cube']}:{'ok' if c['ok'] else 'off'}" for c in cubes)
    return "cubes", cubes, all(c["ok"] for c in cubes), summary


STACKING = DemoTask(name="franka_stacking", tree_id=TREE_ID, phases=PHASES, counted="release",
                    counted_as="stacked", recoveries=RECOVERIES, make_rule=StackingDisturbanceRule, grade=grade,
                    bag_topics=(SENT_TRAJECTORY_TOPIC,))
