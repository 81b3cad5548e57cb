"""banana_bowl: a Panda puts a banana (or a lemon) into a bowl, recording each episode as a
demonstration. Bench target: 95 % for each object, undisturbed. `--disturb drop` (the hand
lets go during the lift) shows the tree's hold check and re-pick; it has no bench target."""
from robot_tasks.tasks.spec import TaskSpec, targets

TASK = TaskSpec(
    name="banana_bowl",
    tree_id="BananaBowl",
    demo="robot_tasks.tasks.banana_bowl.episode:BANANA_BOWL",
    leaves="robot_tasks.tasks.banana_bowl:register_banana_bowl_nodes",
    disturbances=("drop",),
    objects=("banana", "lemon"),
    targets=targets(none=95.0),
)
