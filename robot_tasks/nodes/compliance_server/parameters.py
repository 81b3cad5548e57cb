"""The compliance_server's ROS parameters, declared in one place.

| parameter          | default             | meaning                                                 |
|--------------------|---------------------|---------------------------------------------------------|
| robot_namespace    | panda               | the arm's namespace: its controller_manager, command,    |
|                    |                     | controller_state and ft_sensor topics live under it     |
| default_controller | hybrid_press        | a goal's controller when it names none                  |
| task_frames        | []                  | names of the task frames goals may use (besides world)  |
| task_frame.<name>  | (required)          | that frame's pose in the base frame: x y z qx qy qz qw   |
| world_T_base       | [0,0,0, 0,0,0,1]    | the base frame's pose in "world"                        |
| default_stiffness  | [1000,1000,100,400,400,400] | a goal's stiffness when it gives none (1/s²)   |
| stiffness_limits   | [0, 1000]           | allowed range of every stiffness                         |
| command_rate       | 100.0               | commands per second while a goal runs (wall clock)       |
| feedback_rate      | 10.0                | feedback messages per second (wall clock)                |
| timeout_margin     | 5.0                 | s added to duration + hold for a goal without timeout    |
| state_timeout      | 1.0                 | wall s: older controller_state / F/T readings are stale  |
| switch_timeout     | 5.0                 | wall s to wait for the switch service                    |
"""
from __future__ import annotations

from dataclasses import dataclass

from robot_tasks.control.compliance import PRESS_STIFFNESS
from robot_tasks.control.errors import ControlError
from robot_tasks.control.pose import Pose
from robot_tasks.ros.errors import ParameterError
from robot_tasks.ros.parameters import declare

WORLD = "world"


@dataclass(frozen=True)
class ComplianceConfig:
    robot_namespace: str
    default_controller: str
    frames: dict               # name -> Pose in the base frame ("world" included)
    default_stiffness: tuple
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
    stiffness = declare(node, "default_stiffness", list(PRESS_STIFFNESS),
                        "stiffness of a goal that gives none (1/s²)", length=6,
                        minimum=limits[0], maximum=limits[1])
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
        default_controller=declare(node, "default_controller", "hybrid_press",
                                   "controller of a goal that names none", allow_empty=False),
        frames=frames,
        default_stiffness=tuple(stiffness),
        stiffness_limits=tuple(limits),
        command_rate=positive("command_rate", 100.0, "commands per wall second"),
        feedback_rate=positive("feedback_rate", 10.0, "feedback messages per wall second"),
        timeout_margin=declare(node, "timeout_margin", 5.0, "s added to duration + hold",
                               minimum=0.0),
        state_timeout=positive("state_timeout", 1.0, "wall s before a reading is stale"),
        switch_timeout=positive("switch_timeout", 5.0, "wall s for the switch service"),
    )


def _missing(node, key: str):
    raise ParameterError(key, ": is not set (7 numbers x y z qx qy qz qw)", node=node.get_name())
