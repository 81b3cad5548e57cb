"""What one task's demo episode is, to the episode runner: a `DemoTask`.

The runner (robot_tasks/demo/runner.py) starts the task's nodes, sends its tree, prints
each phase as it starts, disturbs the run and grades the end; everything task-specific it
needs is in one DemoTask: the tree's phase and recovery nodes, the disturbance rule, the
grader over the sim's ground truth, what to record. Every field is plain data or a pure
callable, so a task package defines its DemoTask next to its leaves without importing the
runner or ROS, and its spec (task.py) names it.
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Callable

CONFIG_DIR = Path(__file__).resolve().parents[2] / "config"
# A DemoTask.bag_topics entry, (topic, type, max rate): every trajectory the root-namespace arm
# server sent its driver (robot_tasks/demo/sent_trajectories.py checks them against the limits)
SENT_TRAJECTORY_TOPIC = ("arm_server/sent_trajectory", "trajectory_msgs/msg/JointTrajectory", 0.0)


@dataclass(frozen=True)
class DemoTask:
    """What the runner needs to know about one task's demo.

    name        scene, config/<name>.yaml and the run folder's prefix
    tree_id     the tree the ExecuteTree goal names
    phases      MoveToPose/GripperCommand/MoveToJoints node names printed when they start and
                captured in the montage when they succeed
    counted     the phase whose success counts one item done ("release": a cube stacked)
    counted_as  the word for that count in captions ("stacked", "placed")
    recoveries  {(node name or registration ID, status): what it means}
    make_rule   mode -> a disturbance rule (on_phase_start(phase, count, now), due(now, poses), log;
                `now` is sim time, so a delay means the same at any real-time factor)
    grade       (final poses, first poses, counted events) -> (items key, rows, all ok, summary
                text); poses are {object name: ((x, y, z), (qx, qy, qz, qw))} from the sim's
                ground truth; each counted event is a Counted (sim time, every position then)
    optional (a demonstration-recording task):
    images      ((phase, file stem), ...): one saved image after each of these phases, and
                start_image / done_image before the goal and after the end; the montage
                is then these images in order
    scene_overrides, payload   options -> sim parameters / the ExecuteTree payload (dicts)
    trace_robot     namespace whose controller states make trace.npz ("" = none)
    bounded_phases  phases whose commanded arm steps are reported (max inf-norm step)
    bag_topics      ((topic, type, max rate), ...) for the MCAP bag; camera_topic joins
                    them when rendering is on
    follow      optional: () -> an object fed every node status change, on_change(sim time,
                change), whose summary() dict is merged into the report (franka_pyramid: each
                robot's result, how long both arms moved at once, the cubes bumped); if it
                has them, on_log(line) gets the tree executor's log lines and on_poses(sim
                time, positions) the ground truth, all from the watcher's one thread
    """

    name: str
    tree_id: str
    phases: tuple[str, ...]
    counted: str
    counted_as: str
    recoveries: dict
    make_rule: Callable
    grade: Callable
    images: tuple = ()
    start_image: str = ""
    done_image: str = ""
    scene_overrides: Callable | None = None
    payload: Callable | None = None
    trace_robot: str = ""
    bounded_phases: tuple = ()
    bag_topics: tuple = ()
    camera_topic: tuple | None = None
    follow: Callable | None = None

    @property
    def config(self) -> Path:
        return CONFIG_DIR / f"{self.name}.yaml"
