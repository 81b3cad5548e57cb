"""franka_pick_place: a Panda picks one cube and puts it on a target point, picking it
where it now is when it is dragged on the way. Bench targets: every undisturbed and every
dragged episode correct, as franka_stacking asks of its own drag (one cube, one move: less
to go wrong than the four-cube stack)."""
from robot_tasks.tasks.spec import TaskSpec, targets

TASK = TaskSpec(
    name="franka_pick_place",
    tree_id="FrankaPickPlace",
    demo="robot_tasks.tasks.pick_place.episode:PICK_PLACE",
    leaves="robot_tasks.tasks.pick_place:register_pick_place_nodes",
    disturbances=("drag",),
    items="cubes",
    targets=targets(none=100.0, drag=100.0),
)
