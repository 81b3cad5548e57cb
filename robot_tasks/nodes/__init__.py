"""robot_tasks.nodes"""
