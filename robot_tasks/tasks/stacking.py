"""Tree leaves of the cube-stacking task (trees/franka_stacking.xml).

Thin wrappers: each leaf reads its ports, calls one function of `stacking_plan`, writes
its outputs. World state comes only from the blackboard -- `detections` (perception)
and `ee_pose` (tool pose) -- never from the simulator.

| ID                   | kind      | job                                                       |
|----------------------|-----------|-----------------------------------------------------------|
| InitStacking         | action    | memory from the first detections: spawns, table, base     |
| WaitForFreshDetections | action  | RUNNING until an image newer than "now" is detected     |
| StackComplete        | condition | every cube booked as stacked and none displaced           |
| SelectNextCube       | action    | re-validate the stack, choose the cube to move next       |
| ComputePickTargets   | action    | pre-grasp / grasp poses; remember where the cube was      |
| CubeStillInPlace     | condition | pickup resync: cube within 5 cm of where pickup started   |
| MarkHolding          | action    | book the cube as held                                     |
| CubeInHand           | condition | a cube is booked as held                                  |
| HoldingCube          | condition | drop detection: held cube within 10 cm of the tool        |
| AbandonTransfer      | action    | forget the held cube after a drop                         |
| StackIntact          | condition | stack validity: no stacked cube displaced                 |
| ComputePlaceTargets  | action    | lift / transport / lower / retract poses for the next slot|
|                      |           | (or off the stack, for a cube being cleared away)         |
| ComputeReturnTargets | action    | the same poses back to the held cube's spawn (or near it) |
| MarkStacked          | action    | book the released cube (or end clearing it off the stack) |
| MarkReturned         | action    | the cube is back at its spawn; forget displaced cubes     |
"""
from __future__ import annotations

import logging
import time

from robot_tasks.bt import (BidirectionalPort, ConditionNode, InputPort, NodeStatus, OutputPort,
                            StatefulActionNode, SyncActionNode)
from robot_tasks.bt.errors import BehaviorTreeError

from . import stack_repair as repair
from . import stacking_plan as plan
from .world_view import (Seen, WorldViewError, detections_stamp, position_of_pose, seen_by_label,
                         stamp_seconds)

LOG = logging.getLogger("robot_tasks.tasks.stacking")
SUCCESS, FAILURE = NodeStatus.SUCCESS, NodeStatus.FAILURE
POSE_OUTPUTS = ("lift_pose", "transport_pose", "lower_pose", "retract_pose")


def _stack_port():
    return BidirectionalPort("stack", description="StackingMemory of this run (made by InitStacking)")


def _detections_port():
    return InputPort("detections", description="list of DetectedObject (dicts) from perception")


class _StackingLeaf:
    """Port helpers shared by the leaves (a mixin: the leaves derive from BT node classes)."""

    def memory(self) -> plan.StackingMemory:
        memory = self.get_input("stack")
        if not isinstance(memory, plan.StackingMemory):
            raise BehaviorTreeError(f"node '{self.full_path}': port [stack] holds {type(memory).__name__}, "
                                    f"not the StackingMemory that InitStacking writes")
        return memory

    def seen(self) -> dict[str, Seen]:
        try:
            return seen_by_label(self.get_input("detections", default=None))
        except WorldViewError as exc:
            raise BehaviorTreeError(f"node '{self.full_path}': port [detections]: {exc}") from None

    def tool_position(self):
        pose = self.get_input("ee_pose", default=None)
        if pose is None:
            return None
        try:
            return position_of_pose(pose)
        except WorldViewError as exc:
            raise BehaviorTreeError(f"node '{self.full_path}': port [ee_pose]: {exc}") from None

    def cube(self, memory: plan.StackingMemory) -> str:
        label = self.get_input("cube")
        if label not in memory.order:
            raise BehaviorTreeError(f"node '{self.full_path}': cube '{label}' is not in the stack order "
                                    f"{';'.join(memory.order)}")
        return label


class InitStacking(_StackingLeaf, SyncActionNode):
    """Start a stacking run from the first detections: every cube of `order` must be seen."""

    @staticmethod
    def provided_ports():
        return [_detections_port(),
                InputPort("order", str, default=";".join(plan.DEFAULT_ORDER), description="labels, bottom first"),
                InputPort("cube_size", float, default=0.05, description="cube edge [m]"),
                InputPort("stack_base", str, default="auto", description="'x;y' in world, or auto"),
                OutputPort("stack", description="the new StackingMemory")]

    def tick(self):
        base_text = self.get_input("stack_base").strip()
        base = None
        if base_text.lower() != "auto":
            parts = [p for p in base_text.split(";") if p.strip()]
            try:
                base = (float(parts[0]), float(parts[1]))
                if len(parts) != 2:
                    raise ValueError
            except (ValueError, IndexError):
                raise BehaviorTreeError(f"node '{self.full_path}': stack_base must be 'x;y' or auto, "
                                        f"got '{base_text}'") from None
        try:
            memory = plan.start_stacking(self.seen(), self.get_input("order"), self.get_input("cube_size"), base)
        except plan.StackingError as exc:
            LOG.warning("%s: %s", self.full_path, exc)
            return FAILURE
        memory.note(f"start: base at ({memory.base_xy[0]:.3f}, {memory.base_xy[1]:.3f}), "
                    f"table z {memory.table_z:.3f}")
        self.set_output("stack", memory)
        return SUCCESS


class WaitForFreshDetections(_StackingLeaf, StatefulActionNode):
    """RUNNING until perception reports an image taken after this node started
    (plus `settle_s`, to let things come to rest first).

    Decisions must not rest on an image older than the last thing the arm did (a
    cube just released still shows where it was). The start time is the tool pose's
    joint_states `stamp`; the image time is the detections' header stamp. Without
    either stamp there is nothing to wait for: SUCCESS at once. FAILURE after
    `timeout` wall seconds. Tick it after (and together with) the leaf that refreshes
    `detections`, e.g. in a ReactiveSequence."""

    @staticmethod
    def provided_ports():
        return [_detections_port(),
                InputPort("ee_pose", description="tool pose with the joint_states 'stamp' [s]"),
                InputPort("settle_s", float, default=0.0,
                          description="the image must be this much newer than the start [s, robot clock]"),
                InputPort("timeout", float, default=10.0, description="wall s to wait for a new image")]

    def on_start(self):
        pose = self.get_input("ee_pose", default=None)
        self.since = stamp_seconds(pose.get("stamp")) if isinstance(pose, dict) else None
        if self.since is not None:
            self.since += self.get_input("settle_s")
        self.deadline = time.monotonic() + self.get_input("timeout")
        return self.on_running()

    def on_running(self):
        seen_at = detections_stamp(self.get_input("detections", default=None))
        if self.since is None or seen_at is None or seen_at > self.since:
            return SUCCESS
        if time.monotonic() > self.deadline:
            LOG.warning("%s: no image newer than t=%.3f within %.1f s", self.full_path, self.since,
                        self.get_input("timeout"))
            return FAILURE
        return NodeStatus.RUNNING

    def on_halted(self):
        pass


class StackComplete(_StackingLeaf, ConditionNode):
    """SUCCESS when every cube is booked as stacked and none is seen displaced
    (displaced ones are un-booked here, so the loop goes on to re-stack them)."""

    @staticmethod
    def provided_ports():
        return [_stack_port(), _detections_port(),
                InputPort("tolerance", float, default=plan.DISPLACED_DISTANCE, description="m")]

    def tick(self):
        memory, seen = self.memory(), self.seen()
        repair.reconcile(memory, seen, self.get_input("tolerance"))
        if memory.complete:
            memory.note("complete: " + " < ".join(memory.stacked))
            return SUCCESS
        return FAILURE


class SelectNextCube(_StackingLeaf, SyncActionNode):
    """Re-validate the stack against the detections, then output the cube to move next:
    one in the stack's way (to be cleared off, see stack_repair), else the next cube of
    the order. FAILURE when there is nothing left or the next cube is not seen right now."""

    @staticmethod
    def provided_ports():
        return [_stack_port(), _detections_port(),
                InputPort("tolerance", float, default=plan.DISPLACED_DISTANCE, description="m"),
                OutputPort("cube", str, description="label of the cube to stack next")]

    def tick(self):
        memory, seen = self.memory(), self.seen()
        repair.reconcile(memory, seen, self.get_input("tolerance"))
        memory.clearing = repair.blocking_cube(memory, seen)
        if memory.clearing is not None:
            memory.target = memory.clearing
            memory.note(f"clear: {memory.clearing} is in the way of level {len(memory.stacked)}; moving it off")
            self.set_output("cube", memory.clearing)
            return SUCCESS
        label = plan.next_cube(memory)
        if label is None or label not in seen:
            if label is not None:
                memory.note(f"unseen: {label} is next but perception does not see it")
            return FAILURE
        memory.target = label
        memory.note(f"decide: {label} -> level {len(memory.stacked)}")
        self.set_output("cube", label)
        return SUCCESS


class ComputePickTargets(_StackingLeaf, SyncActionNode):
    """pre-grasp and grasp poses of `cube` as seen now; remembers that position as the
    start of the pickup (for CubeStillInPlace)."""

    @staticmethod
    def provided_ports():
        return [_stack_port(), _detections_port(), InputPort("cube", str),
                OutputPort("pregrasp_pose"), OutputPort("grasp_pose")]

    def tick(self):
        memory = self.memory()
        label = self.cube(memory)
        cube = self.seen().get(label)
        if cube is None:
            memory.note(f"pick: {label} not seen")
            return FAILURE
        memory.first_seen = cube.position
        targets = plan.pick_targets(memory, cube)
        self.set_output("pregrasp_pose", targets["pregrasp_pose"])
        self.set_output("grasp_pose", targets["grasp_pose"])
        return SUCCESS


class CubeStillInPlace(_StackingLeaf, ConditionNode):
    """Pickup resync guard: FAILURE when `cube` is seen more than `threshold` from where
    the pickup started (a missing detection -- gripper in the way -- is not a move)."""

    @staticmethod
    def provided_ports():
        return [_stack_port(), _detections_port(), InputPort("cube", str),
                InputPort("threshold", float, default=plan.RESYNC_DISTANCE, description="m")]

    def tick(self):
        memory = self.memory()
        label = self.cube(memory)
        now = self.seen().get(label)
        if plan.moved_since_seen(memory.first_seen, now, self.get_input("threshold")):
            memory.note(f"pickup_resync: {label} moved {plan.distance(memory.first_seen, now.position):.3f} m")
            return FAILURE
        return SUCCESS


class MarkHolding(_StackingLeaf, SyncActionNode):
    """Book `cube` as held (after the grasp)."""

    @staticmethod
    def provided_ports():
        return [_stack_port(), InputPort("cube", str)]

    def tick(self):
        memory = self.memory()
        memory.holding = self.cube(memory)
        memory.grasps += 1
        return SUCCESS


class CubeInHand(_StackingLeaf, ConditionNode):
    """SUCCESS while a cube is booked as held (grasped and neither placed nor let go)."""

    @staticmethod
    def provided_ports():
        return [_stack_port()]

    def tick(self):
        return SUCCESS if self.memory().holding is not None else FAILURE


class HoldingCube(_StackingLeaf, ConditionNode):
    """Drop detection guard: FAILURE when the held cube is seen more than `threshold`
    from the tool (`ee_pose`). SUCCESS when nothing is held or there is no evidence.

    When the detections carry their capture time (a whole DetectedObjectArray) and
    `ee_pose` its joint_states time (`stamp`), the cube is compared with where the tool
    was when the image was taken: the node keeps the last `HISTORY_S` of tool poses it
    was ticked with during the current hold (it is re-ticked every tick inside a
    ReactiveSequence); an image from before the hold began is no evidence."""

    HISTORY_S = 3.0

    def __init__(self, name, config=None):
        super().__init__(name, config)
        self.history: list = []   # (joint_states time, tool position) of this hold, oldest first
        self._grasp = -1          # memory.grasps when the history was started

    @staticmethod
    def provided_ports():
        return [_stack_port(), _detections_port(),
                InputPort("ee_pose", description="tool pose in the world frame (optional 'stamp' [s])"),
                InputPort("threshold", float, default=plan.DROP_DISTANCE, description="m")]

    def tick(self):
        memory = self.memory()
        if memory.grasps != self._grasp:  # a new hold: images from before it show nothing about it
            self._grasp = memory.grasps
            self.history.clear()
        tool_now = self.tool_position()
        self._remember(tool_now)
        if memory.holding is None:
            return SUCCESS
        held = self.seen().get(memory.holding)
        seen_at = detections_stamp(self.get_input("detections", default=None))
        tool = tool_now if seen_at is None or not self.history else plan.tool_position_at(self.history, seen_at)
        if plan.lost_grip(held, tool, self.get_input("threshold")):
            memory.note(f"dropped: {memory.holding} is {plan.distance(held.position, tool):.3f} m from the tool")
            return FAILURE
        return SUCCESS

    def _remember(self, tool_now) -> None:
        pose = self.get_input("ee_pose", default=None)
        stamp = stamp_seconds(pose.get("stamp")) if isinstance(pose, dict) else None
        if tool_now is None or stamp is None:
            return
        if self.history and stamp <= self.history[-1][0]:
            if stamp < self.history[-1][0]:
                self.history.clear()  # time went backwards (sim reset): start over
            else:
                return
        self.history.append((stamp, tool_now))
        while self.history and self.history[0][0] < stamp - self.HISTORY_S:
            self.history.pop(0)


class AbandonTransfer(_StackingLeaf, SyncActionNode):
    """Forget the held cube (it was dropped); the next decision picks again."""

    @staticmethod
    def provided_ports():
        return [_stack_port()]

    def tick(self):
        memory = self.memory()
        memory.note(f"abandon: transfer of {memory.holding or memory.target}")
        memory.holding = None
        memory.clearing = None
        return SUCCESS


class StackIntact(_StackingLeaf, ConditionNode):
    """Stack validity: FAILURE when a cube booked as stacked is seen displaced."""

    @staticmethod
    def provided_ports():
        return [_stack_port(), _detections_port(),
                InputPort("tolerance", float, default=plan.DISPLACED_DISTANCE, description="m")]

    def tick(self):
        memory = self.memory()
        level = plan.lowest_displaced(memory, self.seen(), self.get_input("tolerance"))
        if level is None:
            return SUCCESS
        memory.suspect.add(memory.stacked[level])
        memory.note(f"stack_check: {memory.stacked[level]} (level {level}) displaced while holding "
                    f"{memory.holding}")
        return FAILURE


class _CarryTargets(_StackingLeaf, SyncActionNode):
    """The four carry poses for the held `cube`, from where the tool is; subclasses say where to."""

    @staticmethod
    def provided_ports():
        return [_stack_port(), _detections_port(), InputPort("cube", str),
                InputPort("ee_pose", description="tool pose in the world frame")] + [
                    OutputPort(name) for name in POSE_OUTPUTS]

    def tick(self):
        memory = self.memory()
        label = self.cube(memory)
        held_at = self.held_at(memory, label)
        if held_at is None:
            return FAILURE
        targets = self.targets(memory, label, held_at)
        for name in POSE_OUTPUTS:
            self.set_output(name, targets[name])
        return SUCCESS

    def targets(self, memory, label, held_at) -> dict:
        raise NotImplementedError

    def held_at(self, memory, label):
        tool = self.tool_position()
        if tool is not None:
            return tool
        seen = self.seen().get(label)
        return seen.position if seen is not None else memory.first_seen

    def park(self, memory, label, held_at):
        """Poses to set `label` down off the stack (its spawn, or a free spot near it);
        that spot becomes its spawn."""
        memory.spawns[label] = repair.parking_spot(memory, self.seen(), label)
        return plan.return_targets(memory, label, held_at)


class ComputePlaceTargets(_CarryTargets):
    """lift / transport / lower / retract poses to put `cube` on the next free slot (or,
    for a cube being cleared away, off the stack)."""

    def targets(self, memory, label, held_at):
        if memory.clearing == label:
            return self.park(memory, label, held_at)
        return plan.place_targets(memory, held_at, self.seen())


class ComputeReturnTargets(_CarryTargets):
    """lift / transport / lower / retract poses to put `cube` back where it spawned (or near it)."""

    def targets(self, memory, label, held_at):
        return self.park(memory, label, held_at)


class MarkStacked(_StackingLeaf, SyncActionNode):
    """Book the released `cube` on top of the stack."""

    @staticmethod
    def provided_ports():
        return [_stack_port(), InputPort("cube", str)]

    def tick(self):
        memory = self.memory()
        label = self.cube(memory)
        memory.holding = None
        if memory.clearing == label:
            memory.clearing = None
            memory.note(f"cleared: {label} set down off the stack")
            return SUCCESS
        if label not in memory.stacked:
            memory.stacked.append(label)
        memory.suspect.discard(label)
        memory.note(f"stacked: {label} at level {memory.stacked.index(label)}")
        return SUCCESS


class MarkReturned(_StackingLeaf, SyncActionNode):
    """The held cube is back at its spawn: forget it, and un-book the displaced cubes
    so the next decision re-stacks them."""

    @staticmethod
    def provided_ports():
        return [_stack_port(), _detections_port(),
                InputPort("tolerance", float, default=plan.DISPLACED_DISTANCE, description="m")]

    def tick(self):
        memory = self.memory()
        memory.note(f"returned: {memory.holding} to its spawn")
        memory.holding = None
        memory.clearing = None
        plan.unstack_displaced(memory, self.seen(), self.get_input("tolerance"))
        return SUCCESS


STACKING_LEAVES = (InitStacking, WaitForFreshDetections, StackComplete, SelectNextCube, ComputePickTargets, CubeStillInPlace,
                   MarkHolding, CubeInHand, HoldingCube, AbandonTransfer, StackIntact, ComputePlaceTargets,
                   ComputeReturnTargets, MarkStacked, MarkReturned)


def register_stacking_nodes(factory) -> None:
    """Register the stacking leaves under their class names."""
    for cls in STACKING_LEAVES:
        factory.register_node_type(cls, cls.__name__)
