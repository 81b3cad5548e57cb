"""robot_tasks.tasks.stacking — a Franka Panda stacks four cubes and keeps them stacked.

The cubes go red < blue < green < yellow on a base spot; a cube dragged, dropped or knocked
on the way is found again and the stack repaired (trees/franka_stacking.xml). The package
holds what the tree's leaves compute, as pure modules, none of which imports ROS:

    plan.py     the decisions and poses: which cube next, pick and place poses, tilted grasps
    repair.py   squaring the booked stack with the image: displaced cubes, parking spots
    leaves.py   the BT leaves over them (look_leaves, pick_leaves, place_leaves on board.py),
                registered by robot_tasks.tasks.register_nodes
"""
from .leaves import STACKING_LEAVES, register_stacking_nodes

__all__ = ["STACKING_LEAVES", "register_stacking_nodes"]
