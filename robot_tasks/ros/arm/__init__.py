"""The arm_server's ROS side (node: robot_tasks.nodes.arm_server).

ROS-free (unit-testable without rclpy): motion_planner (request -> timed trajectory),
settings (per-robot defaults, obstacle lists), joint_state_cache. With ROS: parameters,
conversions, async_tools, goal_kinds (MoveToPose / MoveToJoints specifics), execution
(one goal's life), server (the node), run (process entry helper).
"""
