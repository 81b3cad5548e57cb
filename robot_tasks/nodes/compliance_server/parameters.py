"""The compliance_server's ROS parameters, declared in one place.

| parameter          | default             | meaning                                                 |
|--------------------|---------------------|---------------------------------------------------------|
| robot_namespace    | panda               | the arm's namespace: its controller_manager, its         |
|                    |                     | controllers and its broadcasters live under it          |
| base_frame         | panda_link0         | the robot's base link: the frame_id of target_frame and  |
|                    |                     | target_wrench (FZI's robot_base_link); the wrench topic  |
|                    |                     | must be stated in it                                     |
| wrench_topic       | franka_robot_state_broadcaster/external_wrench_in_base_frame |   |
|                    |                     | the measured wrench the tool exerts on the environment, |
|                    |                     | base axes (the Franka's convention), under the namespace |
| wrench_best_effort | true                | subscribe best effort (franka_robot_state_broadcaster's |
|                    |                     | convenience topics are; false for a reliable publisher) |
| default_controller | hybrid_press        | a goal's controller when it names none                  |
| task_frames        | []                  | names of the task frames goals may use (besides world)  |
| task_frame.<name>  | (required)          | that frame's pose in the base frame: x y z qx qy qz qw   |
| world_T_base       | [0,0,0, 0,0,0,1]    | the base frame's pose in "world"                        |
| stiffness_limits   | [0, 1000]           | allowed range of a goal's stiffnesses                    |
| command_rate       | 100.0               | targets per second while a goal runs (wall clock)        |
| feedback_rate      | 10.0                | feedback messages per second (wall clock)                |
| timeout_margin     | 5.0                 | s added to duration + hold for a goal without timeout    |
| state_timeout      | 1.0                 | wall s: older current_pose / wrench readings are stale   |
| switch_timeout     | 5.0                 | wall s for each controller_manager / parameter call      |

A goal without stiffness runs with the controller's own (its `stiffness.*` parameters as the
cell configured them; the server restores them after a goal that set others).
"""
from __future__ import annotations

from dataclasses import dataclass

from robot_tasks.control.errors import ControlError
from robot_tasks.control.pose import Pose
from robot_tasks.controller_topics import EXTERNAL_WRENCH_TOPIC
from robot_tasks.ros.errors import ParameterError
from robot_tasks.ros.parameters import declare

WORLD = "world"


@dataclass(frozen=True)
class ComplianceConfig:
    robot_namespace: str
    base_frame: str
    wrench_topic: str
    wrench_best_effort: bool
    default_controller: str
    frames: dict               # name -> Pose in the base frame ("world" included)
    stiffness_limits: tuple
    command_rate: float
    feedback_rate: float
    timeout_margin: float
    state_timeout: float
    switch_timeout: float


def _pose(node, name: str, values) -> Pose:
    try:
        return Pose(values[:3], values[3:])
    except ControlError as err:
        raise ParameterError(name, f": {err}", node=node.get_name()) from None


def declare_compliance_parameters(node) -> ComplianceConfig:
    """Declare, read and check every parameter (ParameterError names the bad one)."""
    def positive(name, default, text):
        return declare(node, name, default, text, minimum=0.0, open_minimum=True)

    namespace = declare(node, "robot_namespace", "panda", "the arm's topic namespace").strip("/")
    limits = declare(node, "stiffness_limits", [0.0, 1000.0], "allowed stiffness range", length=2,
                     minimum=0.0)
    if limits[0] > limits[1]:
        raise ParameterError("stiffness_limits", f": low {limits[0]:g} > high {limits[1]:g}",
                             node=node.get_name())
    world_t_base = _pose(node, "world_T_base", declare(
        node, "world_T_base", [0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 1.0],
        "pose of the base frame in world: x y z qx qy qz qw", length=7))
    frames = {WORLD: Pose.from_se3(world_t_base.to_se3().inverse())}
    for name in declare(node, "task_frames", [""], "task frame names goals may use"):
        if not name:
            continue
        key = f"task_frame.{name}"
        frames[name] = _pose(node, key, declare(node, key, None, f"pose of '{name}' in the base "
                                                "frame: x y z qx qy qz qw", length=7, kind=list)
                             or _missing(node, key))
    return ComplianceConfig(
        robot_namespace=namespace,
        base_frame=declare(node, "base_frame", "panda_link0", "the robot's base link",
                           allow_empty=False),
        wrench_topic=declare(node, "wrench_topic", EXTERNAL_WRENCH_TOPIC,
                             "measured wrench, base axes, robot on environment", allow_empty=False),
        wrench_best_effort=declare(node, "wrench_best_effort", True,
                                   "subscribe to wrench_topic best effort"),
        default_controller=declare(node, "default_controller", "hybrid_press",
                                   "controller of a goal that names none", allow_empty=False),
        frames=frames,
        stiffness_limits=tuple(limits),
        command_rate=positive("command_rate", 100.0, "commands per wall second"),
        feedback_rate=positive("feedback_rate", 10.0, "feedback messages per wall second"),
        timeout_margin=declare(node, "timeout_margin", 5.0, "s added to duration + hold",
                               minimum=0.0),
        state_timeout=positive("state_timeout", 1.0, "wall s before a reading is stale"),
        switch_timeout=positive("switch_timeout", 5.0, "wall s for each controller_manager call"),
    )


def _missing(node, key: str):
    raise ParameterError(key, ": is not set (7 numbers x y z qx qy qz qw)", node=node.get_name())
