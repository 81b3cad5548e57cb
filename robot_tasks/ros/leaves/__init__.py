"""Behavior-tree leaves that talk ROS, and the one call that registers them all.

```python
factory = BehaviorTreeFactory()
register_ros_nodes(factory, ros_node)   # ros_node: the rclpy Node that ticks the tree
```

Every leaf gets `ros_node` as an extra constructor argument (the factory passes
extra `register_node_type` arguments after (name, config), like BT.CPP's
`registerNodeType<T>(id, args...)`), and shares action/service clients and topic
subscriptions through it. Call it from the thread that spins `ros_node`'s
executor: the leaves create clients and subscriptions on first use.

| ID                 | kind      | talks to                                   |
|--------------------|-----------|--------------------------------------------|
| MoveToPose         | action    | robot_tasks_interfaces/action/MoveToPose   |
| MoveToJoints       | action    | robot_tasks_interfaces/action/MoveToJoints |
| GripperCommand     | action    | robot_tasks_interfaces/action/GripperCommand |
| DetectObjects      | action    | robot_tasks_interfaces/action/DetectObjects |
| CompliantMove      | action    | robot_tasks_interfaces/action/CompliantMove |
| SwitchController   | service   | controller_manager_msgs/srv/SwitchController |
| TopicCondition     | condition | any topic (freshness / field == value)     |
| TopicToBlackboard  | action    | any topic (message or field -> blackboard) |
| TriggerService     | action    | std_srvs/srv/Trigger                       |
| SetBoolService     | action    | std_srvs/srv/SetBool                       |
| SetDigitalOutput   | action    | ur_msgs/srv/SetIO (a UR's digital output)  |
| ResetScene         | action    | robot_tasks_interfaces/srv/ResetScene      |
| SetPlanningObstacles | action  | planning_obstacles (ObjectStateArray, latched): run-time boxes of PLANNED |
| RosSleep           | action    | the node clock: Sleep in sim time under use_sim_time |
"""
from __future__ import annotations

from robot_tasks.ros.leaves.compliance import CompliantMove, SwitchController
from robot_tasks.ros.leaves.detection import DetectObjects
from robot_tasks.ros.leaves.gripper import GripperCommand
from robot_tasks.ros.leaves.motion import MoveToJoints, MoveToPose
from robot_tasks.ros.leaves.planning_scene import SetPlanningObstacles
from robot_tasks.ros.leaves.ros_sleep import RosSleep
from robot_tasks.ros.leaves.service_node import ResetScene, SetBoolService, TriggerService
from robot_tasks.ros.leaves.set_io import SetDigitalOutput
from robot_tasks.ros.leaves.topic_nodes import TopicCondition, TopicToBlackboard

ROS_LEAVES = (MoveToPose, MoveToJoints, GripperCommand, DetectObjects, CompliantMove,
              SwitchController, TopicCondition, TopicToBlackboard, TriggerService, SetBoolService, SetDigitalOutput,
              ResetScene, SetPlanningObstacles, RosSleep)


def register_ros_nodes(factory, ros_node) -> None:
    """Register every ROS leaf of this package under its class name."""
    for cls in ROS_LEAVES:
        factory.register_node_type(cls, cls.__name__, ros_node)


def register_nodes(factory, ros_node=None) -> None:
    """Plugin entry point, e.g. for ``robot-tasks tree validate --plugin robot_tasks.ros.leaves``:
    without a ros_node the leaves can be created and checked, but raise when ticked."""
    register_ros_nodes(factory, ros_node)


__all__ = ["register_nodes", "register_ros_nodes", "ROS_LEAVES"] + [cls.__name__ for cls in ROS_LEAVES]
