"""robot_tasks.tasks — scenario leaves (stacking, palletizing/, banana_bowl/, pyramid/) registered by ID.

The tree_executor loads this module as a plugin (parameter `plugins`), and
`robot-tasks tree validate --plugin robot_tasks.tasks` does too:

```python
from robot_tasks.tasks import register_nodes
register_nodes(factory)            # ros_node is accepted and unused: these leaves are ROS-free
```
"""
from __future__ import annotations

from .banana_bowl import BANANA_BOWL_LEAVES, register_banana_bowl_nodes
from .palletizing import PALLETIZING_LEAVES, register_palletizing_nodes
from .pyramid import PYRAMID_LEAVES, register_pyramid_nodes
from .stacking import STACKING_LEAVES, register_stacking_nodes
from .tool_pose import ToolPoseFromJointStates


def register_nodes(factory, ros_node=None) -> None:
    """Register every task leaf of this package (stacking, palletizing, banana_bowl and
    pyramid leaves, ToolPoseFromJointStates)."""
    register_stacking_nodes(factory)
    register_palletizing_nodes(factory)
    register_banana_bowl_nodes(factory)
    register_pyramid_nodes(factory)
    factory.register_node_type(ToolPoseFromJointStates, "ToolPoseFromJointStates")


__all__ = ["register_nodes", "STACKING_LEAVES", "PALLETIZING_LEAVES", "BANANA_BOWL_LEAVES", "PYRAMID_LEAVES",
           "ToolPoseFromJointStates"]
