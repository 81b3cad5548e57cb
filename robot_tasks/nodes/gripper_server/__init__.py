"""The `gripper_server` process: GripperCommand for a parallel gripper or a suction cup.

    python -m robot_tasks.nodes.gripper_server --ros-args -r __ns:=/panda -p robot:=panda

node.py is the whole ROS side (parameters, topics, the action); the judgement of "are
the fingers done?" (goal checks, stall detection, verdicts) is ROS-free:
robot_tasks.control.gripper_logic.
"""
