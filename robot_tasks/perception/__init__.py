"""robot_tasks.perception"""
