"""franka_press: 10 N held against a tilted wall at three targets. The scene has no random
part, so a bench's seeds are repeats. Its demo is a DemoTask graded on a recording of force
and pose (press.csv, press.png), robot_tasks/tasks/press/episode.py."""
from robot_tasks.tasks.spec import TaskSpec, targets

TASK = TaskSpec(
    name="franka_press",
    tree_id="FrankaPress",
    demo="robot_tasks.tasks.press.episode:PRESS",
    targets=targets(none=95.0),
)
