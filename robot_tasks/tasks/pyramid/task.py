"""franka_pyramid: two Pandas take a six-cube pyramid apart into a stack each, sharing the
table. Bench targets: 95 % undisturbed, 90 % with a drag or a drop."""
from robot_tasks.tasks.spec import TaskSpec, targets

TASK = TaskSpec(
    name="franka_pyramid",
    tree_id="FrankaPyramid",
    demo="robot_tasks.tasks.pyramid.episode:PYRAMID",
    leaves="robot_tasks.tasks.pyramid:register_pyramid_nodes",
    disturbances=("drag", "drop"),
    items="stacks",
    targets=targets(none=95.0, drag=90.0, drop=90.0),
)
