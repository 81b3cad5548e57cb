"""robot_tasks.tasks.press — a Panda presses 10 N on a tilted wall at three points.

The tree (trees/franka_press.xml) is built from the project's compliant-motion leaves alone
(CompliantMove on the compliance server), so this package holds only the task's spec.
"""
