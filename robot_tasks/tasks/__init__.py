"""robot_tasks.tasks — one package per task (stacking/, palletizing/, ...), its leaves registered by ID.

The tree_executor loads this module as a plugin (parameter `plugins`), and
`robot-tasks tree validate --plugin robot_tasks.tasks` does too:

```python
from robot_tasks.tasks import register_nodes
register_nodes(factory)            # ros_node is accepted and unused: these leaves are ROS-free
```
"""
from __future__ import annotations

from .tool_pose import ToolPoseFromJointStates


def register_nodes(factory, ros_node=None) -> None:
    """Register every task's leaves (each spec's `leaves`, robot_tasks/tasks/spec.py) and the
    shared ToolPoseFromJointStates."""
    from .catalog import tasks

    for spec in tasks():
        if spec.leaves:
            spec.load(spec.leaves)(factory)
    factory.register_node_type(ToolPoseFromJointStates, "ToolPoseFromJointStates")


__all__ = ["register_nodes", "ToolPoseFromJointStates"]
