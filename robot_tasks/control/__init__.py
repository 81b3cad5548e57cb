"""robot_tasks.control"""
