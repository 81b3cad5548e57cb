"""Stacking leaves of the pickup and the carry: where to grasp, the pickup resync and the drop
check, and emptying the hand after a drop or a failed carry (leaves.py).
"""
from __future__ import annotations

import math

from robot_tasks.bt import (
    ConditionNode,
    InputPort,
    OutputPort,
    SyncActionNode,
)

from ..world_leaf import detections_port, first_seen_port
from ..world_view import (
    detections_stamp,
    distance,
    stamp_seconds,
)
from . import plan
from .board import (
    FAILURE,
    SUCCESS,
    _StackingLeaf,
    cube_port,
    holding_port,
    layout_port,
    note,
)


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
