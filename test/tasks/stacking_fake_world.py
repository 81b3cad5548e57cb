"""A tiny kinematic fake of the stacking world, and stub leaves that drive it.

LOGIC TEST ONLY -- not physics. Cubes are points with a yaw; the tool moves in straight
lines at a fixed step per tick; a held cube rides with the tool; a released cube falls
straight down onto whatever is below its centre. That is enough to exercise the tree's
control flow (which branch runs, what gets halted, what gets retried), nothing more.

The stubs are registered under the IDs of the ROS leaves (MoveToPose, GripperCommand,
DetectObjects, TopicToBlackboard) and of ToolPoseFromJointStates, with the *same ports*
(taken from the real classes), so the real tree file loads unchanged.
"""
from __future__ import annotations

import logging
import math
from dataclasses import dataclass, field

import numpy as np
from kinematic_cubes import settle

from robot_tasks.bt import NodeStatus, StatefulActionNode, SyncActionNode
from robot_tasks.ros.leaves.detection import DetectObjects
from robot_tasks.ros.leaves.gripper import GripperCommand
from robot_tasks.ros.leaves.motion import MoveToPose
from robot_tasks.ros.leaves.topic_nodes import TopicToBlackboard
from robot_tasks.ros.leaves.values import parse_pose
from robot_tasks.tasks.stacking import register_stacking_nodes
from robot_tasks.tasks.stacking.leaves import LOG as TASK_LOG
from robot_tasks.tasks.tool_pose import ToolPoseFromJointStates

TABLE_Z = 0.625
SIZE = 0.05
RUNNING, SUCCESS, FAILURE = NodeStatus.RUNNING, NodeStatus.SUCCESS, NodeStatus.FAILURE
COLORS = ("red", "blue", "green", "yellow")


@dataclass
class FakeWorld:
    cubes: dict[str, np.ndarray]
    yaws: dict[str, float]
    tool: np.ndarray = field(default_factory=lambda: np.array([0.307, 0.0, 1.11]))
    holding: str | None = None
    step: float = 0.04                 # tool travel per tick [m]
    noise: float = 0.0                 # detection noise (uniform, per axis) [m]
    occlude_near_tool: bool = True     # hide a cube the open gripper is right above
    rng: np.random.Generator = field(default_factory=lambda: np.random.default_rng(0))
    running_moves: list[str] = field(default_factory=list)   # names of MoveToPose RUNNING now
    log: list[str] = field(default_factory=list)              # motions started, halts, grasps
    hooks: list = field(default_factory=list)                 # disturbances: fn(world) -> None
    latency_ticks: int = 0             # perception reports the world as it was this many ticks ago
    tick_s: float = 0.02               # fake time per tick (stamps of detections and tool poses)
    time: float = 100.0
    snapshots: list = field(default_factory=list)             # (time, detections) of past ticks
    fail_moves: list[str] = field(default_factory=list)       # MoveToPose names to fail (once each)

    @classmethod
    def seeded(cls, seed: int, **kwargs) -> "FakeWorld":
        """Four cubes at random separated spots in the scene's spawn box (like the sim)."""
        rng = np.random.default_rng(seed)
        spots: list[np.ndarray] = []
        while len(spots) < 4:
            xy = np.array([rng.uniform(0.35, 0.65), rng.uniform(-0.30, 0.30)])
            if all(np.linalg.norm(xy - s) >= 0.10 for s in spots):
                spots.append(xy)
        cubes = {f"{c}_cube": np.array([xy[0], xy[1], TABLE_Z + SIZE / 2]) for c, xy in zip(COLORS, spots)}
        yaws = {name: float(rng.uniform(-0.5, 0.5)) for name in cubes}
        return cls(cubes, yaws, rng=np.random.default_rng(seed + 1000), **kwargs)

    # ---- what perception would report --------------------------------------------------
    def detections(self) -> list[dict]:
        out = []
        for name, pos in self.cubes.items():
            if self.occlude_near_tool and name != self.holding and self._under_open_gripper(pos):
                continue
            p = pos + self.rng.uniform(-self.noise, self.noise, 3) if self.noise else pos
            yaw = self.yaws[name]
            out.append({"label": name, "id": name, "confidence": 0.95, "orientation_class": "",
                        "pose": {"position": {"x": float(p[0]), "y": float(p[1]), "z": float(p[2])},
                                 "orientation": {"x": 0.0, "y": 0.0, "z": math.sin(yaw / 2), "w": math.cos(yaw / 2)}},
                        "size": {"x": SIZE, "y": SIZE, "z": SIZE}})
        return out

    def _under_open_gripper(self, pos) -> bool:
        return (np.linalg.norm(self.tool[:2] - pos[:2]) < 0.03 and 0 <= self.tool[2] - pos[2] < 0.06)

    # ---- actuation ---------------------------------------------------------------------
    def move_towards(self, target: np.ndarray) -> bool:
        delta = target - self.tool
        dist = float(np.linalg.norm(delta))
        self.tool = target.copy() if dist <= self.step else self.tool + delta * (self.step / dist)
        if self.holding is not None:
            self.cubes[self.holding] = self.tool.copy()
        return dist <= self.step

    def close_gripper(self) -> bool:
        for name, pos in self.cubes.items():
            if np.linalg.norm(pos[:2] - self.tool[:2]) < 0.02 and abs(pos[2] - self.tool[2]) < 0.02:
                self.holding = name
                self.log.append(f"grasp {name}")
                return True
        self.log.append("grasp nothing")
        return False

    def open_gripper(self) -> None:
        if self.holding is not None:
            self.log.append(f"release {self.holding}")
            self.settle(self.holding)
        self.holding = None

    def settle(self, name: str) -> None:
        """Let cube `name` fall straight down onto the table or the highest cube below it."""
        settle(self.cubes, name, TABLE_Z, SIZE)

    # ---- disturbances (what the sim's perturb service does, kinematically) -------------
    def drag(self, name: str, dxy) -> None:
        self.cubes[name][:2] += np.asarray(dxy, float)
        self.settle(name)
        self.log.append(f"DISTURB drag {name}")

    def drop(self) -> None:
        name = self.holding
        self.holding = None
        self.settle(name)
        self.log.append(f"DISTURB drop {name}")

    def knock(self, name: str, free_spots) -> None:
        """`name` and every cube above it fall off the stack to the given table spots."""
        base = self.cubes[name]
        above = sorted((q[2], n) for n, q in self.cubes.items()
                       if n != self.holding and np.all(np.abs(q[:2] - base[:2]) < SIZE) and q[2] >= base[2])
        for (_, n), xy in zip(above, free_spots):
            self.cubes[n] = np.array([xy[0], xy[1], TABLE_Z + SIZE / 2])
        self.log.append(f"DISTURB knock {name} ({', '.join(n for _, n in above)})")

    def after_tick(self) -> None:
        for hook in list(self.hooks):
            hook(self)
        self.time += self.tick_s
        self.snapshots.append((self.time, self.detections()))
        del self.snapshots[:-(self.latency_ticks + 1)]

    def published_detections(self) -> dict:
        """The `detections` topic message (as a dict): the snapshot `latency_ticks` old,
        stamped with the time it shows."""
        stamp, objects = self.snapshots[0] if self.snapshots else (self.time, self.detections())
        sec = int(stamp)
        return {"header": {"stamp": {"sec": sec, "nanosec": int(round((stamp - sec) * 1e9))}, "frame_id": "world"},
                "objects": objects}


# ---- stub leaves ---------------------------------------------------------------------------
class StubMoveToPose(StatefulActionNode):
    provided_ports = classmethod(lambda cls: MoveToPose.provided_ports())

    def __init__(self, name, config, world):
        super().__init__(name, config)
        self.world = world

    def on_start(self):
        position, _, _ = parse_pose(self.get_input("pose"))
        self.target = np.array(position) + np.array([0, 0, self.get_input("z_offset")])
        self.world.log.append(f"move {self.name}")
        if self.name in self.world.fail_moves:         # e.g. no plan found, arm blocked
            self.world.fail_moves.remove(self.name)
            self.world.log.append(f"failed {self.name}")
            return FAILURE
        self.world.running_moves.append(self.name)
        return RUNNING

    def on_running(self):
        if self.world.move_towards(self.target):
            self.world.running_moves.remove(self.name)
            return SUCCESS
        return RUNNING

    def on_halted(self):
        self.world.running_moves.remove(self.name)
        self.world.log.append(f"halted {self.name}")


class StubGripperCommand(StatefulActionNode):
    provided_ports = classmethod(lambda cls: GripperCommand.provided_ports())

    def __init__(self, name, config, world):
        super().__init__(name, config)
        self.world = world

    def on_start(self):
        return RUNNING  # one tick of "fingers moving"

    def on_running(self):
        detected = False
        if self.get_input("width") < 0.04:
            detected = self.world.close_gripper()
        else:
            self.world.open_gripper()
        if "object_detected" in self.config.output_ports:
            self.set_output("object_detected", detected)
        return SUCCESS

    def on_halted(self):
        pass


class StubDetectObjects(StatefulActionNode):
    provided_ports = classmethod(lambda cls: DetectObjects.provided_ports())

    def __init__(self, name, config, world):
        super().__init__(name, config)
        self.world = world

    def on_start(self):
        return RUNNING

    def on_running(self):
        objects = self.world.detections()
        self.set_output("objects", objects)
        if not objects and self.get_input("require_any"):
            return FAILURE
        return SUCCESS

    def on_halted(self):
        pass


class StubTopicToBlackboard(SyncActionNode):
    provided_ports = classmethod(lambda cls: TopicToBlackboard.provided_ports())

    def __init__(self, name, config, world):
        super().__init__(name, config)
        self.world = world

    def tick(self):
        topic = self.get_input("topic_name")
        if topic == "detections":
            message = self.world.published_detections()
            field_path = self.get_input("field")
            self.set_output("output", message[field_path] if field_path else message)
        elif topic.endswith("joint_states"):
            self.set_output("output", {"name": ["fake"], "position": [0.0]})
        elif topic.endswith("robot_description"):
            self.set_output("output", "<robot name='fake'/>")
        else:
            raise AssertionError(f"the stacking tree reads an unexpected topic {topic}")
        return SUCCESS


class StubToolPose(SyncActionNode):
    provided_ports = classmethod(lambda cls: ToolPoseFromJointStates.provided_ports())

    def __init__(self, name, config, world):
        super().__init__(name, config)
        self.world = world

    def tick(self):
        x, y, z = (float(v) for v in self.world.tool)
        self.set_output("ee_pose", {"x": x, "y": y, "z": z, "qx": 1.0, "qy": 0.0, "qz": 0.0, "qw": 0.0,
                                    "stamp": self.world.time})
        return SUCCESS


STUBS = {"MoveToPose": StubMoveToPose, "GripperCommand": StubGripperCommand,
         "DetectObjects": StubDetectObjects, "TopicToBlackboard": StubTopicToBlackboard,
         "ToolPoseFromJointStates": StubToolPose}


def make_factory(world):
    from robot_tasks.bt import BehaviorTreeFactory

    factory = BehaviorTreeFactory()
    register_stacking_nodes(factory)
    for registration_id, cls in STUBS.items():
        factory.register_node_type(cls, registration_id, world)
    return factory


def run_tree(tree, world, max_ticks: int = 5000):
    """Tick until the root finishes (or max_ticks); disturbance hooks run after each tick."""
    status = RUNNING
    for ticks in range(1, max_ticks + 1):
        status = tree.tick_once()
        world.after_tick()
        if status is not RUNNING:
            return status, ticks
    return status, max_ticks


# ---- what the run decided: the task's log and its blackboard entries -----------------------
TASK_EVENTS: list[str] = []


class _Collect(logging.Handler):
    def emit(self, record):
        TASK_EVENTS.append(record.getMessage())


def collect_task_log():
    """A fixture body (wrap it with pytest.fixture): the stacking leaves' log lines of one
    test go to TASK_EVENTS, as the tree executor's log and report.json get them."""
    TASK_EVENTS.clear()
    handler, level = _Collect(), TASK_LOG.level
    TASK_LOG.addHandler(handler)
    TASK_LOG.setLevel(logging.INFO)
    yield TASK_EVENTS
    TASK_LOG.removeHandler(handler)
    TASK_LOG.setLevel(level)


@dataclass
class TaskState:
    """The end of a run as the tree knows it: its log and the entries that hold the task state."""

    events: list[str]
    stacked: list[str]
    holding: str | None
    base_xy: tuple[float, float]


def task_state(board) -> TaskState:
    return TaskState(list(TASK_EVENTS), list(board.get("stacked")), board.get("holding", None),
                     board.get("layout").base_xy)
