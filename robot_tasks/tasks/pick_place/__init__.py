"""robot_tasks.tasks.pick_place — a Franka Panda picks one cube and puts it on a target point.

The source material's simplest task (Isaac Sim's Franka pick-place example, an if/else
script and a state machine there), here a behavior tree: trees/franka_pick_place.xml.
The target point is the task's input (the ExecuteTree payload's `target`, 'x;y'); where
the cube is comes only from perception. Someone dragging the cube while the arm comes
for it is noticed (pickup resync) and the pickup starts again where the cube now is.

The package is the whole task, as every task package is (see "Adding a task" in the
README); none of it imports ROS or the demo runner:

    task.py     TASK, the spec the catalog finds (robot_tasks/tasks/spec.py)
    plan.py     the poses and the two checks, pure functions on numbers
    leaves.py   the BT leaves over them (registered by robot_tasks.tasks.register_nodes)
    episode.py  PICK_PLACE, the demo episode: phases, recoveries, the drag rule, the grader

and outside it, named by the task: trees/franka_pick_place.xml, the scene
robot_tasks/sim/scenes/franka_pick_place.py, config/franka_pick_place.yaml (+ .real.yaml,
.rviz) and launch/franka_pick_place.launch.xml.
"""
from .leaves import PICK_PLACE_LEAVES, register_pick_place_nodes

__all__ = ["PICK_PLACE_LEAVES", "register_pick_place_nodes"]
