"""banana_bowl: a Panda puts a banana (or a lemon) into a bowl, recording each episode as a
demonstration. Bench target: 95 % for each object, undisturbed and with `--disturb drop` (the
hand lets go during the lift; the tree's hold check finds it and picks again)."""
from robot_tasks.tasks.spec import TaskSpec, targets

TASK = TaskSpec(
    name="banana_bowl",
    tree_id="BananaBowl",
    demo="robot_tasks.tasks.banana_bowl.episode:BANANA_BOWL",
    leaves="robot_tasks.tasks.banana_bowl:register_banana_bowl_nodes",
    disturbances=("drop",),
    objects=("banana", "lemon"),
    targets=targets(none=95.0, drop=95.0),
)
