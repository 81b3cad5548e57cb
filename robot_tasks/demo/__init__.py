"""robot_tasks.demo — end-to-end demo runs (`robot-tasks demo franka_stacking | ur10_palletizing`).

runner.py starts the node set, runs a task's tree and writes the run folder; each task is a
DemoTask (franka_stacking.py, ur10_palletizing.py) built from ROS-free pieces: grading
(report.py, pallet_grade.py), disturbance rules (disturbance.py, pallet_disturbance.py),
the montage (montage.py); episodes.py loops seeded episodes for the benches.
"""
