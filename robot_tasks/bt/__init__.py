"""robot_tasks.bt"""
