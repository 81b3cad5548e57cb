"""Tree leaves of the cube-stacking task (trees/franka_stacking.xml).

The task's state is a few named blackboard entries, each a port in the XML, so the tree
shows which leaf reads and which writes what (see "Writing task leaves" in the README):

| entry          | what                                        | written by                         |
|----------------|---------------------------------------------|------------------------------------|
| `layout`       | order, base, table height, cube size (fixed)| InitStacking                       |
| `spawns`       | where each cube goes back to                | InitStacking, ComputeParkTargets   |
| `stacked`      | labels booked on the stack, bottom first    | InitStacking, ReconcileStack,      |
|                |                                             | MarkStacked, MarkReturned          |
| `suspects`     | cubes a stack check saw displaced           | InitStacking, MarkDisplaced,       |
|                |                                             | MarkStacked                        |
| `holding`      | the held cube, '' for an empty hand         | Scripts (start, grasp),            |
|                |                                             | MarkStacked, MarkCleared,          |
|                |                                             | MarkReturned, AbandonTransfer      |
| `grasps`       | grasps so far (a new hold, a new tool track)| Scripts (start, grasp)             |
| `cube`, `mode` | the decision: which cube; stack/clear/look  | SelectNextCube                     |
| `first_seen`   | where the cube was when its pickup started  | ComputePickTargets                 |

A condition only reads; the one decision that changes the flow (`mode`) is an output
port the XML branches on. Each leaf reads its ports, calls one pure function of
`plan` / `repair`, writes its outputs. World state comes only from
`detections` (perception) and `ee_pose` (tool pose by forward kinematics), never from
the simulator. What the task decides and why goes to the log (`note`), which the tree
executor's log and the demo's report.json show.

| ID                     | kind      | job                                                     |
|------------------------|-----------|---------------------------------------------------------|
| InitStacking           | action    | layout and spawns from the first detections             |
| WaitForFreshDetections | action    | RUNNING until an image newer than "now" is detected     |
| ReconcileStack         | action    | square `stacked` with the image (repair.reconcile)|
| StackComplete          | condition | every cube of the order booked                          |
| SelectNextCube         | action    | `cube` and `mode`: stack it, clear it off, or look again|
| ComputePickTargets     | action    | pre-grasp / grasp poses and `first_seen`                |
| CubeStillInPlace       | condition | pickup resync: cube within 5 cm of `first_seen`         |
| HoldingCube            | condition | drop detection: held cube within 10 cm of the tool      |
| AbandonTransfer        | action    | empty hand after a drop or a failed carry               |
| StackIntact            | condition | stack validity: no stacked cube displaced               |
| MarkDisplaced          | action    | add the displaced cube to `suspects`                    |
| ComputePlaceTargets    | action    | lift / transport / lower / retract poses to the next slot|
| ComputeParkTargets     | action    | the same poses to the cube's spawn (or a spot near it)  |
| MarkStacked            | action    | book the released cube on the stack                     |
| MarkCleared            | action    | a cube cleared off the stack was set down               |
| MarkReturned           | action    | the held cube is back at its spawn; un-book displaced   |
"""
from __future__ import annotations

import logging
import math
import time

from robot_tasks.bt import (
    BidirectionalPort,
    ConditionNode,
    InputPort,
    NodeStatus,
    OutputPort,
    StatefulActionNode,
    SyncActionNode,
)
from robot_tasks.bt.errors import BehaviorTreeError

from ..world_view import (
    Seen,
    WorldViewError,
    detections_stamp,
    distance,
    position_of_pose,
    seen_by_label,
    stamp_seconds,
)
from . import plan, repair

LOG = logging.getLogger("robot_tasks.tasks.stacking")
SUCCESS, FAILURE = NodeStatus.SUCCESS, NodeStatus.FAILURE
POSE_OUTPUTS = ("lift_pose", "transport_pose", "lower_pose", "retract_pose")
MODES = ("stack", "clear", "look")
RECOVERY_NOTES = ("pickup_resync", "dropped", "stack_", "abandon", "returned", "unseen", "clear", "in_place")


def note(text: str) -> None:
    """Log what the task decided or noticed: recoveries as warnings, progress as info
    (the tree executor's log and the demo's task_log show them)."""
    LOG.log(logging.WARNING if text.startswith(RECOVERY_NOTES) else logging.INFO, "%s", text)


# ---- ports (one definition per entry, so every leaf describes it the same way) ---------
def layout_port():
    return InputPort("layout", description="StackLayout of this run (made by InitStacking)")


def stacked_port(direction=InputPort):
    return direction("stacked", description="labels booked on the stack, bottom first")


def suspects_port(direction=InputPort):
    return direction("suspects", description="cubes a stack check saw displaced")


def spawns_port(direction=InputPort):
    return direction("spawns", description="{label: xyz} where each cube goes back to")


def holding_port(direction=InputPort):
    return direction("holding", str, description="label of the held cube, '' for none")


def detections_port():
    return InputPort("detections", description="list of DetectedObject (dicts) from perception")


def cube_port():
    return InputPort("cube", str, description="label of the cube")


def first_seen_port(direction=InputPort):
    return direction("first_seen", description="xyz of the cube when its pickup started")


def tolerance_port():
    return InputPort("tolerance", float, default=plan.DISPLACED_DISTANCE, description="m")


class _StackingLeaf:
    """Port readers shared by the leaves (a mixin: the leaves derive from BT node classes);
    each names the node and the port when the entry holds something unusable."""

    def layout(self) -> plan.StackLayout:
        layout = self.get_input("layout")
        if not isinstance(layout, plan.StackLayout):
            raise BehaviorTreeError(f"node '{self.full_path}': port [layout] holds {type(layout).__name__}, "
                                    f"not the StackLayout that InitStacking writes")
        return layout

    def labels(self, port: str) -> tuple[str, ...]:
        value = self.get_input(port)
        if isinstance(value, (list, tuple)) and all(isinstance(v, str) for v in value):
            return tuple(value)
        raise BehaviorTreeError(f"node '{self.full_path}': port [{port}] must be a list of labels, got {value!r}")

    def seen(self) -> dict[str, Seen]:
        try:
            return seen_by_label(self.get_input("detections", default=None))
        except WorldViewError as exc:
            raise BehaviorTreeError(f"node '{self.full_path}': port [detections]: {exc}") from None

    def position(self, port: str):
        """xyz of a pose port, None when the entry is empty."""
        pose = self.get_input(port, default=None)
        if pose is None:
            return None
        try:
            return position_of_pose(pose)
        except WorldViewError as exc:
            raise BehaviorTreeError(f"node '{self.full_path}': port [{port}]: {exc}") from None

    def cube(self, layout: plan.StackLayout) -> str:
        label = self.get_input("cube")
        if label not in layout.order:
            raise BehaviorTreeError(f"node '{self.full_path}': cube '{label}' is not in the stack order "
                                    f"{';'.join(layout.order)}")
        return label


class InitStacking(_StackingLeaf, SyncActionNode):
    """Start a stacking run from the first detections: every cube of `order` must be seen.
    Writes the fixed `layout`, the `spawns`, and the empty `stacked` and `suspects`."""

    @staticmethod
    def provided_ports():
        return [detections_port(),
                InputPort("order", str, default=";".join(plan.DEFAULT_ORDER), description="labels, bottom first"),
                InputPort("cube_size", float, default=0.05, description="cube edge [m]"),
                InputPort("stack_base", str, default="auto", description="'x;y' in world, or auto"),
                OutputPort("layout", description="the run's StackLayout"),
                spawns_port(OutputPort), stacked_port(OutputPort), suspects_port(OutputPort)]

    def tick(self):
        try:
            layout, spawns = plan.start_stacking(self.seen(), self.get_input("order"), self.get_input("cube_size"),
                                                 self.base())
        except plan.StackingError as exc:
            LOG.warning("%s: %s", self.full_path, exc)
            return FAILURE
        note(f"start: base at ({layout.base_xy[0]:.3f}, {layout.base_xy[1]:.3f}), table z {layout.table_z:.3f}")
        self.set_output("layout", layout)
        self.set_output("spawns", spawns)
        self.set_output("stacked", ())
        self.set_output("suspects", ())
        return SUCCESS

    def base(self):
        text = self.get_input("stack_base").strip()
        if text.lower() == "auto":
            return None
        parts = [p for p in text.split(";") if p.strip()]
        try:
            if len(parts) != 2:
                raise ValueError
            return (float(parts[0]), float(parts[1]))
        except ValueError:
            raise BehaviorTreeError(f"node '{self.full_path}': stack_base must be 'x;y' or auto, "
                                    f"got '{text}'") from None


class WaitForFreshDetections(StatefulActionNode):
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
        return [detections_port(),
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


class ReconcileStack(_StackingLeaf, SyncActionNode):
    """Square the booking with the image before a decision: un-book cubes seen displaced
    and suspects (with everything above them), book cubes already standing at their slots
    (repair.reconcile). Writes `stacked`; always SUCCESS."""

    @staticmethod
    def provided_ports():
        return [layout_port(), stacked_port(BidirectionalPort), suspects_port(), holding_port(), detections_port(),
                tolerance_port()]

    def tick(self):
        stacked, notes = repair.reconcile(self.layout(), self.labels("stacked"), self.labels("suspects"),
                                          self.get_input("holding"), self.seen(), self.get_input("tolerance"))
        for text in notes:
            note(text)
        self.set_output("stacked", stacked)
        return SUCCESS


class StackComplete(_StackingLeaf, ConditionNode):
    """SUCCESS when every cube of the order is booked on the stack, in order (run
    ReconcileStack first, so the booking matches the image)."""

    @staticmethod
    def provided_ports():
        return [layout_port(), stacked_port()]

    def tick(self):
        layout, stacked = self.layout(), self.labels("stacked")
        if plan.stack_complete(layout, stacked):
            note("complete: " + " < ".join(stacked))
            return SUCCESS
        return FAILURE


class SelectNextCube(_StackingLeaf, SyncActionNode):
    """The decision: which `cube` to move next and how (`mode`), for the XML to branch on.

    - `clear`: a cube not booked is in the stack's way (repair.blocking_cube) --
      it is picked and set down off the stack;
    - `stack`: the next cube of the order, seen now, goes on the stack;
    - `look`:  the next cube is not seen (often the arm hides it from the camera).
    FAILURE when nothing is left to stack."""

    @staticmethod
    def provided_ports():
        return [layout_port(), stacked_port(), holding_port(), detections_port(),
                OutputPort("cube", str, description="label of the cube to move next"),
                OutputPort("mode", str, description="stack | clear | look")]

    def tick(self):
        layout, stacked, seen = self.layout(), self.labels("stacked"), self.seen()
        blocking = repair.blocking_cube(layout, stacked, self.get_input("holding"), seen)
        label = plan.next_cube(layout, stacked)
        if blocking is not None:
            note(f"clear: {blocking} is in the way of level {len(stacked)}; moving it off")
            label, mode = blocking, "clear"
        elif label is None:
            return FAILURE
        elif label not in seen:
            note(f"unseen: {label} is next but perception does not see it")
            mode = "look"
        else:
            note(f"decide: {label} -> level {len(stacked)}")
            mode = "stack"
        self.set_output("cube", label)
        self.set_output("mode", mode)
        return SUCCESS


class ComputePickTargets(_StackingLeaf, SyncActionNode):
    """pre-grasp and grasp poses of `cube` as seen now, and that position as `first_seen`
    (the start of the pickup, for CubeStillInPlace). FAILURE when the cube is not seen.
    A cube seen leaning is gripped across its tilt axis, the hand tipped along its up
    face's normal (plan.tilted_grasp)."""

    @staticmethod
    def provided_ports():
        return [layout_port(), detections_port(), cube_port(),
                OutputPort("pregrasp_pose"), OutputPort("grasp_pose"), first_seen_port(OutputPort)]

    def tick(self):
        layout = self.layout()
        label = self.cube(layout)
        cube = self.seen().get(label)
        if cube is None:
            note(f"pick: {label} not seen")
            return FAILURE
        targets = plan.pick_targets(layout, cube)
        if cube.tilt >= plan.LEVEL_TILT:
            note(f"pick: {label} leans {math.degrees(cube.tilt):.0f} deg; the hand tips with it")
        self.set_output("pregrasp_pose", targets["pregrasp_pose"])
        self.set_output("grasp_pose", targets["grasp_pose"])
        self.set_output("first_seen", cube.position)
        return SUCCESS


class CubeStillInPlace(_StackingLeaf, ConditionNode):
    """Pickup resync guard: FAILURE when `cube` is seen more than `threshold` from
    `first_seen` (a missing detection -- gripper in the way -- is not a move)."""

    @staticmethod
    def provided_ports():
        return [detections_port(), cube_port(), first_seen_port(),
                InputPort("threshold", float, default=plan.RESYNC_DISTANCE, description="m")]

    def tick(self):
        label, first_seen = self.get_input("cube"), self.position("first_seen")
        now = self.seen().get(label)
        if plan.moved_since_seen(first_seen, now, self.get_input("threshold")):
            note(f"pickup_resync: {label} moved {distance(first_seen, now.position):.3f} m")
            return FAILURE
        return SUCCESS


class HoldingCube(_StackingLeaf, ConditionNode):
    """Drop detection guard: FAILURE when the `holding` cube is seen more than `threshold`
    from the tool (`ee_pose`). SUCCESS when nothing is held or there is no evidence.

    When the detections carry their capture time (a whole DetectedObjectArray) and
    `ee_pose` its joint_states time (`stamp`), the cube is compared with where the tool
    was when the image was taken: the node keeps the last `HISTORY_S` of tool poses it
    was ticked with during the current hold (it is re-ticked every tick inside a
    ReactiveSequence; a new value of `grasps` starts a new hold); an image from before
    the hold began is no evidence. The track is the node's own memory, not task state:
    the blackboard is only read."""

    HISTORY_S = 3.0

    def __init__(self, name, config=None):
        super().__init__(name, config)
        self.history: list = []   # (joint_states time, tool position) of this hold, oldest first
        self._grasp = None        # `grasps` when the history was started

    @staticmethod
    def provided_ports():
        return [holding_port(), InputPort("grasps", int, description="grasps so far: a new value is a new hold"),
                detections_port(),
                InputPort("ee_pose", description="tool pose in the world frame (optional 'stamp' [s])"),
                InputPort("threshold", float, default=plan.DROP_DISTANCE, description="m")]

    def tick(self):
        grasps = self.get_input("grasps")
        if grasps != self._grasp:  # a new hold: images from before it show nothing about it
            self._grasp = grasps
            self.history.clear()
        tool_now = self.position("ee_pose")
        self._remember(tool_now)
        holding = self.get_input("holding")
        if not holding:
            return SUCCESS
        held = self.seen().get(holding)
        seen_at = detections_stamp(self.get_input("detections", default=None))
        tool = tool_now if seen_at is None or not self.history else plan.tool_position_at(self.history, seen_at)
        if plan.lost_grip(held, tool, self.get_input("threshold")):
            note(f"dropped: {holding} is {distance(held.position, tool):.3f} m from the tool")
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


class _EmptyHand(_StackingLeaf, SyncActionNode):
    """The hand let go of `cube` without booking it: `holding` becomes ''; subclasses say
    why in their NOTE (the log line, with {cube})."""

    NOTE = ""

    @staticmethod
    def provided_ports():
        return [cube_port(), holding_port(OutputPort)]

    def tick(self):
        note(self.NOTE.format(cube=self.get_input("cube")))
        self.set_output("holding", "")
        return SUCCESS


class AbandonTransfer(_EmptyHand):
    """Give up the transfer of `cube` (dropped, or its carry failed): `holding` becomes ''."""

    NOTE = "abandon: transfer of {cube}"


class StackIntact(_StackingLeaf, ConditionNode):
    """Stack validity: FAILURE when a cube booked as stacked is seen displaced."""

    @staticmethod
    def provided_ports():
        return [layout_port(), stacked_port(), detections_port(), tolerance_port()]

    def tick(self):
        level = plan.lowest_displaced(self.layout(), self.labels("stacked"), self.seen(), self.get_input("tolerance"))
        return SUCCESS if level is None else FAILURE


class MarkDisplaced(_StackingLeaf, SyncActionNode):
    """After StackIntact failed: add the lowest displaced stacked cube to `suspects`, so
    the next decision re-stacks it even if its own image misses the displacement."""

    @staticmethod
    def provided_ports():
        return [layout_port(), stacked_port(), suspects_port(BidirectionalPort), holding_port(), detections_port(),
                tolerance_port()]

    def tick(self):
        stacked = self.labels("stacked")
        level = plan.lowest_displaced(self.layout(), stacked, self.seen(), self.get_input("tolerance"))
        if level is None:
            return SUCCESS
        suspects = self.labels("suspects")
        note(f"stack_check: {stacked[level]} (level {level}) displaced while holding {self.get_input('holding')}")
        if stacked[level] not in suspects:
            self.set_output("suspects", suspects + (stacked[level],))
        return SUCCESS


class _CarryTargets(_StackingLeaf, SyncActionNode):
    """The four carry poses for the held `cube`, from where the tool is (`ee_pose`; else
    where the cube is seen, else `first_seen`); subclasses say where to."""

    @staticmethod
    def carry_ports():
        return [layout_port(), detections_port(), cube_port(),
                InputPort("ee_pose", description="tool pose in the world frame"), first_seen_port()] + [
                    OutputPort(name) for name in POSE_OUTPUTS]

    def tick(self):
        layout = self.layout()
        label = self.cube(layout)
        held_at = self.held_at(label)
        if held_at is None:
            return FAILURE
        targets = self.targets(layout, label, held_at)
        for name in POSE_OUTPUTS:
            self.set_output(name, targets[name])
        return SUCCESS

    def targets(self, layout, label, held_at) -> dict:
        raise NotImplementedError

    def held_at(self, label):
        tool = self.position("ee_pose")
        if tool is not None:
            return tool
        seen = self.seen().get(label)
        return seen.position if seen is not None else self.position("first_seen")


class ComputePlaceTargets(_CarryTargets):
    """lift / transport / lower / retract poses to put `cube` on the next free slot of
    `stacked` (on the cube below as seen)."""

    @staticmethod
    def provided_ports():
        return _CarryTargets.carry_ports() + [stacked_port()]

    def targets(self, layout, label, held_at):
        return plan.place_targets(layout, self.labels("stacked"), held_at, self.seen())


class ComputeParkTargets(_CarryTargets):
    """lift / transport / lower / retract poses to set `cube` down off the stack: at its
    spawn, or at a free spot near it (repair.parking_spot), which becomes its spawn
    in `spawns`."""

    @staticmethod
    def provided_ports():
        return _CarryTargets.carry_ports() + [spawns_port(BidirectionalPort)]

    def targets(self, layout, label, held_at):
        spawns = dict(self.get_input("spawns"))
        spawns[label] = repair.parking_spot(layout, spawns, self.seen(), label)
        self.set_output("spawns", spawns)
        return plan.carry_targets(layout, held_at, spawns[label])


class MarkStacked(_StackingLeaf, SyncActionNode):
    """Book the released `cube` on top of the stack: `stacked` gains it, `suspects` lose
    it (it was set down again), `holding` becomes ''."""

    @staticmethod
    def provided_ports():
        return [layout_port(), cube_port(), stacked_port(BidirectionalPort), suspects_port(BidirectionalPort),
                holding_port(OutputPort)]

    def tick(self):
        label = self.cube(self.layout())
        stacked = self.labels("stacked")
        if label not in stacked:
            stacked += (label,)
        self.set_output("stacked", stacked)
        self.set_output("suspects", tuple(s for s in self.labels("suspects") if s != label))
        self.set_output("holding", "")
        note(f"stacked: {label} at level {stacked.index(label)}")
        return SUCCESS


class MarkCleared(_EmptyHand):
    """A cube cleared off the stack's way was set down: `holding` becomes '' (nothing booked)."""

    NOTE = "cleared: {cube} set down off the stack"


class MarkReturned(_StackingLeaf, SyncActionNode):
    """The held `cube` is back at its spawn: `holding` becomes '', and the displaced cubes
    are un-booked from `stacked`, so the next decision re-stacks them."""

    @staticmethod
    def provided_ports():
        return [layout_port(), cube_port(), stacked_port(BidirectionalPort), detections_port(), tolerance_port(),
                holding_port(OutputPort)]

    def tick(self):
        note(f"returned: {self.get_input('cube')} to its spawn")
        stacked, notes = repair.unbook_displaced(self.layout(), self.labels("stacked"), self.seen(),
                                                 self.get_input("tolerance"))
        for text in notes:
            note(text)
        self.set_output("stacked", stacked)
        self.set_output("holding", "")
        return SUCCESS


STACKING_LEAVES = (InitStacking, WaitForFreshDetections, ReconcileStack, StackComplete, SelectNextCube,
                   ComputePickTargets, CubeStillInPlace, HoldingCube, AbandonTransfer, StackIntact, MarkDisplaced,
                   ComputePlaceTargets, ComputeParkTargets, MarkStacked, MarkCleared, MarkReturned)


def register_stacking_nodes(factory) -> None:
    """Register the stacking leaves under their class names."""
    for cls in STACKING_LEAVES:
        factory.register_node_type(cls, cls.__name__)
