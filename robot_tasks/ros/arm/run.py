"""Run the arm or gripper server in a process (robot_tasks/nodes/* stay one-liners).

A settings error (bad parameter) is printed and gives exit code 2.
"""
from __future__ import annotations

from robot_tasks.ros.spin import run_node as _run_node


def run_node(make_node, args=None) -> int:
    from robot_tasks.ros.arm.settings import SettingsError

    return _run_node(make_node, args, setting_errors=(SettingsError,))
