"""The gripper_server's ROS side (node: robot_tasks.nodes.gripper_server).

logic (ROS-free: goal checks, stall detection, verdicts) and server (the node).
"""
