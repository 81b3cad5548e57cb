"""What every stacking leaf shares: the blackboard entries' ports, the log, and the port readers.

The entries and who writes them are tabled in leaves.py; each port helper here declares one
entry the same way wherever a leaf reads or writes it, and `_StackingLeaf` reads them back,
naming the node and the port when an entry holds something unusable. The world-view entries
every task reads (`detections`, `first_seen`) and their readers come from tasks/world_leaf.py.
"""
from __future__ import annotations

import logging

from robot_tasks.bt import (
    InputPort,
    NodeStatus,
)
from robot_tasks.bt.errors import BehaviorTreeError

from ..world_leaf import WorldViewLeaf
from . import plan

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


def cube_port():
    return InputPort("cube", str, description="label of the cube")


def tolerance_port():
    return InputPort("tolerance", float, default=plan.DISPLACED_DISTANCE, description="m")


class _StackingLeaf(WorldViewLeaf):
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

    def cube(self, layout: plan.StackLayout) -> str:
        label = self.get_input("cube")
        if label not in layout.order:
            raise BehaviorTreeError(f"node '{self.full_path}': cube '{label}' is not in the stack order "
                                    f"{';'.join(layout.order)}")
        return label
