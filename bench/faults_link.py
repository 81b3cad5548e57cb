"""Fault scenarios of the cable between two computers (issue 31): the robot's and the task's.

Each function takes the bench's parsed arguments and returns (passed, what happened), as
the scenarios of bench/faults.py do. They run robot_tasks.testing.link_faults: franka_stacking
split over two network namespaces joined only by one veth (the deployment's DDS settings
inside them, nothing outside them), the cable pulled for 3 s mid-motion or for good, or the
robot's computer killed and booted again. Each takes 40-90 s; every namespace, veth and
process is removed at its end. They need root and `ip` (elsewhere they pass as skipped).
"""
from __future__ import annotations

import tempfile
from pathlib import Path

from robot_tasks.testing.link_faults import SCENARIOS as LINK_SCENARIOS
from robot_tasks.testing.netns import unavailable_reason


def _row(scenario):
    def run(_args):
        why = unavailable_reason()
        if why:
            return True, f"skipped: {why}"
        outcome = scenario(Path(tempfile.mkdtemp(prefix=f"faults_{scenario.__name__}_")))
        return outcome.ok, outcome.what
    run.__doc__ = scenario.__doc__
    return run


SCENARIOS = {name: _row(scenario) for name, scenario in LINK_SCENARIOS.items()}
