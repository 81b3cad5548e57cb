"""Stacking leaves that look and decide: start from the first image, wait for a fresh one, square
the booked stack with it, and choose the next cube and what to do with it (leaves.py).
"""
from __future__ import annotations

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

from ..world_leaf import detections_port
from ..world_view import (
    detections_stamp,
    stamp_seconds,
)
from . import plan, repair
from .board import (
    FAILURE,
    LOG,
    SUCCESS,
    _StackingLeaf,
    holding_port,
    layout_port,
    note,
    spawns_port,
    stacked_port,
    suspects_port,
    tolerance_port,
)


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
