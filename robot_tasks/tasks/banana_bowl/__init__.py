"""robot_tasks.tasks.banana_bowl — the scripted pick-and-place expert: an object into a bowl.

A Panda picks a YCB object (the banana, or a near-spherical one such as a lemon) from the
table and puts it in the YCB bowl. The flow is trees/banana_bowl.xml: a settle, then seven
phases, each one motion primitive of the servers — pregrasp (PLANNED), descend
(CARTESIAN), grasp (FORCE_HOLD), lift and transport (BOUNDED), release, retreat — and a
settle. This package holds what the leaves compute, none of it importing ROS:

    contract.py  TaskSpec + GraspProfiles from config/banana_bowl_task.yaml, checked
    targets.py   the pose of every phase from the detections (yaw, box) and the profile
    success.py   the two-part success check (within the bowl's footprint, inside it)
    leaves.py    the BT leaves (registered by robot_tasks.tasks.register_nodes)
"""
from .leaves import BANANA_BOWL_LEAVES, register_banana_bowl_nodes

__all__ = ["BANANA_BOWL_LEAVES", "register_banana_bowl_nodes"]
