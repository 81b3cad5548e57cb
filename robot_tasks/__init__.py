"""robot_tasks: BehaviorTree.CPP-v4 XML trees driving simulated and real robot arms over ROS 2."""

__version__ = "0.1.0"
