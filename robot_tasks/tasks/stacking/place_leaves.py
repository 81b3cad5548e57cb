"""Stacking leaves of the placement and the stack's bookkeeping: the stack-validity check, where
to carry the cube (onto the stack or back to its spawn), and booking what was done (leaves.py).
"""
from __future__ import annotations

from robot_tasks.bt import (
    BidirectionalPort,
    ConditionNode,
    InputPort,
    OutputPort,
    SyncActionNode,
)

from ..world_leaf import detections_port, first_seen_port
from . import plan, repair
from .board import (
    FAILURE,
    POSE_OUTPUTS,
    SUCCESS,
    _StackingLeaf,
    cube_port,
    holding_port,
    layout_port,
    note,
    spawns_port,
    stacked_port,
    suspects_port,
    tolerance_port,
)
from .pick_leaves import _EmptyHand


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
