"""Sub-commands of `robot-tasks`; each module exposes `register(subparsers)`.

Modules here import heavy dependencies (rclpy, pybullet) lazily inside their
handlers, so `robot-tasks --help` stays fast and works without ROS.
"""
