"""robot_tasks.tasks"""
