"""ur10_palletizing: nine bins from a conveyor onto a 3 x 3 pallet, the upside-down ones
through the flip station. Bench targets: 95 % of episodes in every mode and 99 % of bins."""
from robot_tasks.tasks.spec import TaskSpec, targets

TASK = TaskSpec(
    name="ur10_palletizing",
    tree_id="Ur10Palletizing",
    demo="robot_tasks.tasks.palletizing.episode:PALLETIZING",
    leaves="robot_tasks.tasks.palletizing:register_palletizing_nodes",
    disturbances=("drop", "slot", "tilt"),
    items="bins",
    targets=targets(none=95.0, drop=95.0, slot=95.0, tilt=95.0, items=99.0),
)
