"""Two Frankas take a six-cube pyramid apart, each building a three-cube stack, from one
tree file (trees/franka_pyramid.xml).

The concept: both robots run an instance of the same per-robot tree (`PyramidRobot`),
each with its own parameters (its name, base pose, goal, the order it walks the cubes).
What they must agree on -- which cube is whose, who is in the middle -- lives in a
blackboard both instances see: each instance's blackboard has the same parent, and a
leaf reaches that parent with an `@`-key, as in BehaviorTree.CPP. One tree_executor
ticks both instances in one loop, so a leaf's read-then-write of the shared entries is
atomic without any lock of its own.

- shared_board.py: the shared entries and the pure bookkeeping (reserve, lock, place);
- pyramid_view.py: what rests on what, the top-down order of the cubes (pure geometry);
- targets.py: approach/grasp/lift/place poses, the in-hand calibration, settling (pure);
- shared_leaves.py: SurveyPyramid, ReserveCube, AcquireCenterLock, ReleaseCenterLock,
  ReleaseReservation, MarkPlaced, ReconcileOwnStack;
- view_leaves.py: RobotToolPose, PickPoses, CubeUnmoved, CubeInGripper,
  PlacePoses, CubeOnStack, WaitUntilSettled;
- keep_trying.py: the KeepTrying decorator (retry, warn every 5 s).
"""
from __future__ import annotations

from .keep_trying import KeepTrying
from .shared_leaves import SHARED_LEAVES
from .view_leaves import VIEW_LEAVES

PYRAMID_LEAVES = SHARED_LEAVES + VIEW_LEAVES + (KeepTrying,)


def register_pyramid_nodes(factory) -> None:
    """Register the pyramid leaves (and KeepTrying) under their class names."""
    for cls in PYRAMID_LEAVES:
        factory.register_node_type(cls, cls.__name__)
