"""robot_tasks.demo — end-to-end demo runs (`robot-tasks demo franka_stacking`).

ROS-free helpers (montage, report, disturbance rules) and the ROS-side runner
(franka_stacking.py) that starts the node set, runs the tree and writes a run folder.
"""
