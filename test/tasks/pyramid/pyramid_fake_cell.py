"""A kinematic fake of the two-Panda pyramid cell, and stub leaves that drive it.

LOGIC TEST ONLY -- not physics. Cubes are points; each robot's tool moves in straight
lines at a fixed step per tick; a held cube rides with its tool; a released cube falls
straight down onto the table or the highest cube under it. Enough to exercise the
tree's flow with two instances ticked in any interleaving: who reserves what, who waits
for the lock, what is retried after a drag.

The stubs take the IDs of the ROS leaves (MoveToPose, GripperCommand, TopicToBlackboard)
and of RobotToolPose, with the real classes' ports, so trees/franka_pyramid.xml loads
unchanged. A stub finds its robot from the action or topic name (`panda_1/...`).
"""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
from kinematic_cubes import settle

from robot_tasks.bt import BehaviorTreeFactory, NodeStatus, StatefulActionNode, SyncActionNode
from robot_tasks.ros.leaves.gripper import GripperCommand
from robot_tasks.ros.leaves.motion import MoveToPose
from robot_tasks.ros.leaves.topic_nodes import TopicToBlackboard
from robot_tasks.ros.leaves.values import parse_pose
from robot_tasks.sim.scenes.franka_pyramid import pyramid_slots
from robot_tasks.tasks.pyramid import register_pyramid_nodes
from robot_tasks.tasks.pyramid.view_leaves import RobotToolPose

SIZE = 0.05
TABLE_Z = 0.625
RUNNING, SUCCESS, FAILURE = NodeStatus.RUNNING, NodeStatus.SUCCESS, NodeStatus.FAILURE
COLORS = ("red", "blue", "green", "yellow", "orange", "purple")
HOMES = {"panda_1": (0.25, 0.10, 1.0), "panda_2": (0.75, -0.10, 1.0)}


def robot_of(name: str) -> str:
    return name.split("/", 1)[0]


@dataclass
class Arm:
    tool: np.ndarray
    holding: str | None = None
    moving: str | None = None          # name of the MoveToPose running now


@dataclass
class FakeCell:
    cubes: dict[str, np.ndarray]
    arms: dict[str, Arm] = field(default_factory=lambda: {r: Arm(np.array(p)) for r, p in HOMES.items()})
    step: float = 0.05                 # tool travel per tick [m]
    tick_s: float = 0.02
    time: float = 10.0
    log: list[str] = field(default_factory=list)       # "panda_1 move approach", "panda_2 grasp red_cube" ...
    hooks: list = field(default_factory=list)          # fn(cell) after every tick (disturbances)
    failing: set = field(default_factory=set)          # (robot, MoveToPose name) that always fail
    occluders: list = field(default_factory=list)      # fn(cell) -> cubes the camera cannot see now

    @classmethod
    def pyramid(cls, seed: int = 0) -> "FakeCell":
        colors = list(COLORS)
        np.random.default_rng(seed).shuffle(colors)
        return cls({f"{c}_cube": np.array([x, y, z + SIZE / 2]) for c, (x, y, z) in zip(colors, pyramid_slots())})

    # ---- what perception and joint_states would say ---------------------------------------
    def detections(self) -> dict:
        sec = int(self.time)
        hidden = set().union(*(hide(self) for hide in self.occluders))
        objects = [{"label": n, "confidence": 0.95,
                    "pose": {"position": {"x": float(p[0]), "y": float(p[1]), "z": float(p[2])},
                             "orientation": {"x": 0.0, "y": 0.0, "z": 0.0, "w": 1.0}},
                    "size": {"x": SIZE, "y": SIZE, "z": SIZE}} for n, p in self.cubes.items() if n not in hidden]
        return {"header": {"stamp": {"sec": sec, "nanosec": int(round((self.time - sec) * 1e9))}}, "objects": objects}

    def tool_pose(self, robot: str) -> dict:
        x, y, z = (float(v) for v in self.arms[robot].tool)
        return {"x": x, "y": y, "z": z, "qx": 1.0, "qy": 0.0, "qz": 0.0, "qw": 0.0, "frame_id": "world",
                "stamp": self.time}

    # ---- actuation ------------------------------------------------------------------------
    def move_towards(self, robot: str, target: np.ndarray) -> bool:
        arm = self.arms[robot]
        delta = target - arm.tool
        dist = float(np.linalg.norm(delta))
        arm.tool = target.copy() if dist <= self.step else arm.tool + delta * (self.step / dist)
        if arm.holding is not None:
            self.cubes[arm.holding] = arm.tool.copy()
        return dist <= self.step

    def close(self, robot: str) -> None:
        arm = self.arms[robot]
        for name, pos in self.cubes.items():
            if np.linalg.norm(pos - arm.tool) < 0.02 and not any(a.holding == name for a in self.arms.values()):
                arm.holding = name
                self.log.append(f"{robot} grasp {name}")
                return
        self.log.append(f"{robot} grasp nothing")

    def open(self, robot: str) -> None:
        arm = self.arms[robot]
        if arm.holding is not None:
            self.log.append(f"{robot} release {arm.holding}")
            self.settle(arm.holding)
        arm.holding = None

    def settle(self, name: str) -> None:
        """Let cube `name` fall straight down onto the table or the highest cube below it."""
        settle(self.cubes, name, TABLE_Z, SIZE)

    def after_tick(self) -> None:
        for hook in list(self.hooks):
            hook(self)
        self.time += self.tick_s


# ---- stub leaves -------------------------------------------------------------------------
class _Stub:
    def __init__(self, name, config, cell):
        super().__init__(name, config)
        self.cell = cell


class StubMoveToPose(_Stub, StatefulActionNode):
    provided_ports = classmethod(lambda cls: MoveToPose.provided_ports())

    def on_start(self):
        self.robot = robot_of(self.get_input("action_name"))
        position, _, _ = parse_pose(self.get_input("pose"))
        self.target = np.array(position)
        if (self.robot, self.name) in self.cell.failing:   # e.g. no plan to there
            self.cell.log.append(f"{self.robot} failed {self.name}")
            return FAILURE
        arm = self.cell.arms[self.robot]
        assert arm.moving is None, f"{self.robot}: {self.name} started while {arm.moving} runs"
        arm.moving = self.name
        self.cell.log.append(f"{self.robot} move {self.name}")
        return RUNNING

    def on_running(self):
        if self.cell.move_towards(self.robot, self.target):
            self.cell.arms[self.robot].moving = None
            return SUCCESS
        return RUNNING

    def on_halted(self):
        self.cell.arms[self.robot].moving = None
        self.cell.log.append(f"{self.robot} halted {self.name}")


class StubGripperCommand(_Stub, StatefulActionNode):
    provided_ports = classmethod(lambda cls: GripperCommand.provided_ports())

    def on_start(self):
        self.robot = robot_of(self.get_input("action_name"))
        self.cell.log.append(f"{self.robot} gripper {self.name}")
        return RUNNING  # one tick of fingers moving

    def on_running(self):
        (self.cell.close if self.get_input("width") < 0.04 else self.cell.open)(self.robot)
        return SUCCESS

    def on_halted(self):
        pass


class StubTopicToBlackboard(_Stub, SyncActionNode):
    provided_ports = classmethod(lambda cls: TopicToBlackboard.provided_ports())

    def tick(self):
        topic = self.get_input("topic_name")
        if topic == "detections":
            self.set_output("output", self.cell.detections())
        else:
            self.set_output("output", robot_of(topic))   # joint_states / robot_description: the robot's name
        return SUCCESS


class StubRobotToolPose(_Stub, SyncActionNode):
    provided_ports = classmethod(lambda cls: RobotToolPose.provided_ports())

    def tick(self):
        self.set_output("ee_pose", self.cell.tool_pose(self.get_input("joint_states")))
        return SUCCESS


def factory_for(cell: FakeCell) -> BehaviorTreeFactory:
    """The real pyramid leaves, plus the stubs driving `cell`, in one factory."""
    factory = BehaviorTreeFactory()
    register_pyramid_nodes(factory)
    factory.unregister_builder("RobotToolPose")
    for cls, rid in ((StubMoveToPose, "MoveToPose"), (StubGripperCommand, "GripperCommand"),
                     (StubTopicToBlackboard, "TopicToBlackboard"), (StubRobotToolPose, "RobotToolPose")):
        factory.register_node_type(cls, rid, cell)
    return factory
