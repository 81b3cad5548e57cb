"""robot_tasks.ros"""
