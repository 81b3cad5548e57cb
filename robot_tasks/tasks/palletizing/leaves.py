"""Tree leaves of the palletizing task (trees/ur10_palletizing.xml).

Each leaf reads its ports, asks one pure function (cell, bins, targets), writes its
outputs. World state comes only from `detections` (perception); which way a bin lies
is perception's `orientation_class`. The leaves never read the simulator.

| ID                      | kind      | job                                                        |
|-------------------------|-----------|------------------------------------------------------------|
| LocateBinAtPickup       | action    | a bin waits at the belt's end: its pick poses and          |
|                         |           | `needs_flip` (the decision the tree branches on)           |
| BinStillAtPickup        | condition | the bin at the belt's end still lies where its grip pose   |
|                         |           | was computed (the pickup resync guard)                     |
| FlipStationTargets      | action    | poses of the two quarter turns at the jig                  |
| SlotFree                | condition | no bin seen in pallet slot `slot_index`                    |
| SlotTargets             | action    | corridor poses into slot `slot_index`                      |
| PlacementCompletesStack | condition | `slot_index` is past the last slot: the pallet is full     |

The slot bookkeeping is the blackboard entry `slot_index`, advanced by Scripts in the
XML (after a placement, and past a slot found taken), so Groot2 shows it.
"""
from __future__ import annotations

import logging
import math

from robot_tasks.bt import ConditionNode, InputPort, NodeStatus, OutputPort, SyncActionNode
from robot_tasks.bt.errors import BehaviorTreeError
from robot_tasks.tasks.world_view import WorldViewError

from . import targets as tg
from .bins import bin_at_pickup, seen_bins, slot_taken
from .cell import DEFAULT_CELL
from .tool import cup_direction

LOG = logging.getLogger("robot_tasks.tasks.palletizing")
SUCCESS, FAILURE = NodeStatus.SUCCESS, NodeStatus.FAILURE
CELL = DEFAULT_CELL
TILTED = math.radians(3.0)     # a bin further from flat than this is said to lie tilted in the log


def _detections_port():
    return InputPort("detections", description="list of DetectedObject (dicts) from perception")


def _slot_port():
    return InputPort("slot_index", int, description="the pallet slot to fill next (0..8)")


class _BinLeaf:
    def bins(self):
        try:
            return seen_bins(self.get_input("detections", default=None))
        except WorldViewError as exc:
            raise BehaviorTreeError(f"node '{self.full_path}': port [detections]: {exc}") from None

    def slot(self) -> int:
        index = self.get_input("slot_index")
        if not isinstance(index, int) or not 0 <= index < CELL.slot_count:
            raise BehaviorTreeError(f"node '{self.full_path}': port [slot_index] is {index!r}, "
                                    f"not a slot in 0..{CELL.slot_count - 1}")
        return index


class LocateBinAtPickup(_BinLeaf, SyncActionNode):
    """SUCCESS when perception sees a bin at the conveyor's end; FAILURE when none waits there.

    Writes where to reach (a corridor onto the face that is up: vertical for a flat bin,
    along the face's normal for one that lies tilted) and `needs_flip`:
    true when the bin lies upside down, which sends it to the flip station first. The lift
    after the grip is short for a flip (the jig is near and low) and high otherwise."""

    @staticmethod
    def provided_ports():
        return [_detections_port(),
                InputPort("lift_for_flip", float, default=0.30, description="m to lift a bin bound for the jig"),
                InputPort("lift_for_place", float, default=0.50, description="m to lift a bin bound for the pallet"),
                OutputPort("needs_flip", bool, description="the bin lies upside down"),
                OutputPort("above_pose", description="corridor start above the bin"),
                OutputPort("grip_pose", description="the cup on the bin's upper face"),
                OutputPort("lift_pose", description="straight up after the grip")]

    def tick(self):
        found = bin_at_pickup(self.bins(), CELL)
        if found is None:
            return FAILURE
        flip = found.upside_down
        lift = self.get_input("lift_for_flip" if flip else "lift_for_place")
        poses = tg.pick_targets(found.position, found.yaw, flip, CELL, lift, up=found.up)
        self.set_output("needs_flip", flip)
        self.set_output("above_pose", poses.above)
        self.set_output("grip_pose", poses.grip)
        self.set_output("lift_pose", poses.lift)
        x, y, z = found.position
        tilted = f", tilted {math.degrees(found.tilt):.0f} deg: reaching along its face's normal" \
            if found.tilt > TILTED else ""
        LOG.info("pickup: bin at (%.3f, %.3f, %.3f) %s%s", x, y, z,
                 "upside down -> flip station" if flip else "upright -> pallet", tilted)
        return SUCCESS


class BinStillAtPickup(_BinLeaf, ConditionNode):
    """Pickup resync guard: FAILURE when the bin at the belt's end now asks for another grip
    than `grip_pose` -- the cup's point more than `threshold` away, or its approach turned by
    more than `max_turn` -- because the bin moved or tipped after it was located. No bin seen
    (the arm hides it) is no evidence: SUCCESS. Only reads.

    Between locating a bin and touching it the tree moves the arm above it, which takes
    seconds; a bin knocked or tipped meanwhile must be located again, not reached where it was
    (a reach against a tilted bin ends off target and the cup pushes the bin off the belt)."""

    @staticmethod
    def provided_ports():
        return [_detections_port(),
                InputPort("grip_pose", description="the grip pose computed when the bin was located"),
                InputPort("threshold", float, default=0.02, description="m the grip point may move"),
                InputPort("max_turn", float, default=math.radians(5.0),
                          description="rad the approach direction may turn")]

    def tick(self):
        found = bin_at_pickup(self.bins(), CELL)
        if found is None:
            return SUCCESS
        planned = self.get_input("grip_pose")
        try:
            planned_xyz = (planned["x"], planned["y"], planned["z"])
            planned_q = (planned["qx"], planned["qy"], planned["qz"], planned["qw"])
        except (TypeError, KeyError):
            raise BehaviorTreeError(f"node '{self.full_path}': port [grip_pose] is {planned!r}, "
                                    f"not a pose from LocateBinAtPickup") from None
        now = tg.pick_targets(found.position, found.yaw, found.upside_down, CELL, 0.0, up=found.up).grip
        moved = math.dist(planned_xyz, (now["x"], now["y"], now["z"]))
        a, b = cup_direction(planned_q), cup_direction((now["qx"], now["qy"], now["qz"], now["qw"]))
        turned = math.acos(max(-1.0, min(1.0, sum(u * v for u, v in zip(a, b)))))
        if moved > self.get_input("threshold") or turned > self.get_input("max_turn"):
            LOG.info("pickup resync: the bin's grip moved %.3f m and turned %.0f deg since it was located: "
                     "locating it again", moved, math.degrees(turned))
            return FAILURE
        return SUCCESS


class FlipStationTargets(SyncActionNode):
    """The jig's poses: lay the bin on its side (first quarter turn), re-grip it through
    its open face and turn it upright (second quarter turn). See targets.flip_targets."""

    NAMES = ("lay_above", "lay", "lay_retreat", "lay_clear", "regrip_above", "regrip_mouth", "regrip",
             "regrip_lift", "upright")

    @classmethod
    def provided_ports(cls):
        return [OutputPort(f"{name}_pose", description=f"flip station: {name.replace('_', ' ')}")
                for name in cls.NAMES]

    def tick(self):
        poses = tg.flip_targets(CELL)
        for name in self.NAMES:
            self.set_output(f"{name}_pose", getattr(poses, name))
        LOG.info("flip station: turning the bin over on the jig")
        return SUCCESS


class SlotFree(_BinLeaf, ConditionNode):
    """SUCCESS when perception sees no bin in slot `slot_index` (only reads)."""

    @staticmethod
    def provided_ports():
        return [_detections_port(), _slot_port()]

    def tick(self):
        index = self.slot()
        if slot_taken(self.bins(), CELL, index):
            LOG.info("slot %d is taken: skipping it", index)
            return FAILURE
        return SUCCESS


class SlotTargets(_BinLeaf, SyncActionNode):
    """Corridor poses into slot `slot_index`: above it, the release pose, the lift after."""

    @staticmethod
    def provided_ports():
        return [_slot_port(),
                InputPort("flipped", bool, default=False, description="the bin came through the flip station"),
                OutputPort("above_pose"), OutputPort("place_pose"), OutputPort("lift_pose")]

    def tick(self):
        index = self.slot()
        poses = tg.place_targets(CELL, index)
        self.set_output("above_pose", poses.above)
        self.set_output("place_pose", poses.place)
        self.set_output("lift_pose", poses.lift)
        LOG.info("place: slot %d%s", index, " (flipped at the flip station)" if self.get_input("flipped") else "")
        return SUCCESS


class PlacementCompletesStack(ConditionNode):
    """SUCCESS once `slot_index` has moved past the last slot (only reads)."""

    @staticmethod
    def provided_ports():
        return [InputPort("slot_index", int, description="the pallet slot to fill next"),
                InputPort("slot_count", int, default=9, description="slots on the pallet")]

    def tick(self):
        return SUCCESS if self.get_input("slot_index") >= self.get_input("slot_count") else FAILURE


PALLETIZING_LEAVES = (LocateBinAtPickup, BinStillAtPickup, FlipStationTargets, SlotFree, SlotTargets, PlacementCompletesStack)


def register_palletizing_nodes(factory) -> None:
    for cls in PALLETIZING_LEAVES:
        factory.register_node_type(cls, cls.__name__)
