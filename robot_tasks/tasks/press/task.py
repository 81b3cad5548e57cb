"""franka_press: 10 N held against a tilted wall at three targets. The scene has no random
part, so a bench's seeds are repeats. Its demo has a runner of its own (the force log and
plot), robot_tasks/demo/franka_press.py."""
from robot_tasks.tasks.spec import TaskSpec, targets

TASK = TaskSpec(
    name="franka_press",
    tree_id="FrankaPress",
    demo="robot_tasks.demo.franka_press:run_press",
    targets=targets(none=95.0),
)
