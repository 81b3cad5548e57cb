"""robot_tasks.tasks.palletizing — a UR10 with a suction cup palletizes bins from a conveyor.

Bins arrive at the conveyor's end; about half lie upside down and go through the flip
station (two quarter turns at a jig) before they are put down upright in the next free
slot of a 3 x 3 pallet. The flow is trees/ur10_palletizing.xml; this package holds
what the tree's leaves compute, as pure modules, none of which imports ROS:

    cell.py     the cell's fixed places (pickup point, jig, pallet slots)
    tool.py     suction-tool orientations (cup down with a yaw, cup along +-y)
    bins.py     bins in perception's detections: which waits at the pickup, which slot is taken
    targets.py  corridor poses for the pick, both flip-station grips and the placement
    leaves.py   the BT leaves over them (registered by robot_tasks.tasks.register_nodes)
"""
from .leaves import PALLETIZING_LEAVES, register_palletizing_nodes

__all__ = ["PALLETIZING_LEAVES", "register_palletizing_nodes"]
