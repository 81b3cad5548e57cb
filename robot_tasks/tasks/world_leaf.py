"""What a task leaf reads of the world view: the `detections` entry and pose entries.

Task leaves see the world only through two kinds of blackboard entries (world_view.py):
the perception `detections` and poses such as `first_seen`, the xyz of a cube when its
pickup started. Every task declares these ports the same way and reads them the same
way, so both live here: the port helpers, and `WorldViewLeaf`, a mixin of readers for
the leaves (which derive from BT node classes). A reader names the node and the port
when an entry holds something unusable, so a bad tree fails with a message that says
where to look.
"""
from __future__ import annotations

from robot_tasks.bt import InputPort
from robot_tasks.bt.errors import BehaviorTreeError

from .world_view import Seen, Vec3, WorldViewError, position_of_pose, seen_by_label


def detections_port():
    return InputPort("detections", description="list of DetectedObject (dicts) from perception")


def first_seen_port(direction=InputPort):
    return direction("first_seen", description="xyz of the cube when its pickup started")


class WorldViewLeaf:
    """Readers of the world-view entries, for a leaf that derives from a BT node class."""

    def seen(self) -> dict[str, Seen]:
        """The `detections` entry by label (empty when nothing was written yet)."""
        try:
            return seen_by_label(self.get_input("detections", default=None))
        except WorldViewError as exc:
            raise BehaviorTreeError(f"node '{self.full_path}': port [detections]: {exc}") from None

    def position(self, port: str) -> Vec3 | None:
        """xyz of a pose port, None when the entry is empty."""
        pose = self.get_input(port, default=None)
        if pose is None:
            return None
        try:
            return position_of_pose(pose)
        except WorldViewError as exc:
            raise BehaviorTreeError(f"node '{self.full_path}': port [{port}]: {exc}") from None
