"""The root of every error this project raises on purpose.

Each layer has one error class of its own, derived from :class:`RobotTasksError`, and
raises it (or a subclass naming a narrower cause) for bad input and failed operations:

| layer                  | class                                   |
|------------------------|-----------------------------------------|
| `robot_tasks.bt`       | `bt.errors.BehaviorTreeError`           |
| `robot_tasks.control`  | `control.errors.ControlError`           |
| `robot_tasks.sim`      | `sim.errors.SimError`                   |
| `robot_tasks.perception` | `perception.errors.PerceptionError`   |
| `robot_tasks.tasks`    | `tasks.errors.TaskError`                |
| `robot_tasks.runtime`  | `runtime.errors.TreeRuntimeError`       |
| `robot_tasks.ros`, `nodes` | `ros.errors.RosError`               |
| the process layer (`bringup`) | `bringup.BringupError`          |
| CLI, demo              | `commands._errors.CommandError`          |

So a program that embeds robot_tasks can tell "robot_tasks refused this" from a bug with
one `except RobotTasksError`, and a node's main turns any of them raised while the node
is being built into exit code 2 with the message (see `robot_tasks.ros.node_main`).
This module imports nothing.
"""


class RobotTasksError(Exception):
    """Base class of every error robot_tasks raises deliberately."""
