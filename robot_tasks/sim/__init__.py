"""robot_tasks.sim"""
