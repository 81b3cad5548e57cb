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

The classes live by stage: look_leaves.py (InitStacking .. SelectNextCube), pick_leaves.py
(ComputePickTargets .. AbandonTransfer), place_leaves.py (StackIntact .. MarkReturned), over
board.py (the ports, the log and the port readers they share); this module registers them.
"""
from __future__ import annotations

from .board import LOG, MODES, POSE_OUTPUTS, RECOVERY_NOTES, note
from .look_leaves import InitStacking, ReconcileStack, SelectNextCube, StackComplete, WaitForFreshDetections
from .pick_leaves import AbandonTransfer, ComputePickTargets, CubeStillInPlace, HoldingCube
from .place_leaves import (
    ComputeParkTargets,
    ComputePlaceTargets,
    MarkCleared,
    MarkDisplaced,
    MarkReturned,
    MarkStacked,
    StackIntact,
)

__all__ = ["LOG", "MODES", "POSE_OUTPUTS", "RECOVERY_NOTES", "note", "STACKING_LEAVES", "register_stacking_nodes"]

STACKING_LEAVES = (InitStacking, WaitForFreshDetections, ReconcileStack, StackComplete, SelectNextCube,
                   ComputePickTargets, CubeStillInPlace, HoldingCube, AbandonTransfer, StackIntact, MarkDisplaced,
                   ComputePlaceTargets, ComputeParkTargets, MarkStacked, MarkCleared, MarkReturned)


def register_stacking_nodes(factory) -> None:
    """Register the stacking leaves under their class names."""
    for cls in STACKING_LEAVES:
        factory.register_node_type(cls, cls.__name__)
