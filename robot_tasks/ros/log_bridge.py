"""Forward Python `logging` records of library code (robot_tasks.*, plugins) to a node's
ROS logger, so they appear in the node's console output and /rosout with its name.

Without this, Python's last-resort handler prints only WARNING and above, without the
node's name: a tree's INFO decisions ("decide: blue_cube -> level 1") were lost.
"""
from __future__ import annotations

import logging


class RosLoggerHandler(logging.Handler):
    """A logging.Handler writing each record to an rclpy logger at the matching severity."""

    def __init__(self, ros_logger):
        super().__init__()
        self.ros_logger = ros_logger

    def emit(self, record: logging.LogRecord) -> None:
        try:
            text = self.format(record)
            if record.levelno >= logging.ERROR:
                self.ros_logger.error(text)
            elif record.levelno >= logging.WARNING:
                self.ros_logger.warning(text)
            elif record.levelno >= logging.INFO:
                self.ros_logger.info(text)
            else:
                self.ros_logger.debug(text)
        except Exception:  # a logging failure must never break the tree that logged
            self.handleError(record)


def forward_python_logging(ros_logger, logger_name: str = "robot_tasks", level: int = logging.INFO) -> RosLoggerHandler:
    """Attach a RosLoggerHandler to `logger_name` (not propagated further: no double printing)."""
    handler = RosLoggerHandler(ros_logger)
    logger = logging.getLogger(logger_name)
    logger.addHandler(handler)
    logger.setLevel(level)
    logger.propagate = False
    return handler
