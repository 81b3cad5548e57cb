"""The ROS layer's errors (`robot_tasks.ros` and every process under `robot_tasks.nodes`).

`RosError` is the one class the layer raises on purpose; narrower causes subclass it:
`ParameterError` (a node parameter that cannot be used, raised by
`robot_tasks.ros.parameters`), `LoopbackConfigError` (DDS set-up) and the message
conversion errors. This module imports nothing from ROS, so `dds.py` can use it before
rclpy is loaded.
"""
from __future__ import annotations

from robot_tasks.errors import RobotTasksError


class RosError(RobotTasksError):
    """Base class of every error the ROS layer raises on purpose."""


class ParameterError(RosError, ValueError):
    """A node parameter that the node cannot run with.

    The message names the node and the parameter and says what was expected, e.g.
    ``arm_server: parameter 'velocity_scaling' must be in (0, 1], got 1.5``.
    """

    def __init__(self, parameter: str, reason: str, node: str | None = None):
        self.parameter, self.reason, self.node = parameter, reason, node
        where = f"{node}: " if node else ""
        gap = "" if reason.startswith(":") else " "
        super().__init__(f"{where}parameter '{parameter}'{gap}{reason}")
