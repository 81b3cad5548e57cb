"""Python logging records reach the node's ROS logger at the right severity."""
from __future__ import annotations

import logging

from robot_tasks.ros.log_bridge import forward_python_logging


class RecordingLogger:
    def __init__(self):
        self.calls = []

    def __getattr__(self, severity):
        return lambda text: self.calls.append((severity, text))


def test_records_are_forwarded_by_severity_and_not_propagated(capsys):
    ros_logger = RecordingLogger()
    handler = forward_python_logging(ros_logger, "robot_tasks.test_bridge")
    try:
        log = logging.getLogger("robot_tasks.test_bridge.child")
        log.debug("hidden")
        log.info("decide: blue_cube -> level 1")
        log.warning("stack_invalid: x")
        log.error("broken")
    finally:
        logging.getLogger("robot_tasks.test_bridge").removeHandler(handler)
    assert ros_logger.calls == [("info", "decide: blue_cube -> level 1"), ("warning", "stack_invalid: x"),
                                ("error", "broken")]
    assert capsys.readouterr().err == ""
