"""`make colcon-check` in the test suite: the checkout builds with colcon and installs as a
ROS package (tools/colcon_check.py; about 1.5 min on 2 cores, most of it the interfaces).

This is CI's colcon step: `make test` runs it with the rest of the suite.
"""
from __future__ import annotations

import subprocess
import sys

import pytest
from paths import REPO

pytestmark = [pytest.mark.slow, pytest.mark.timeout(1000)]


def test_the_checkout_builds_with_colcon_into_a_complete_ros_install_tree(tmp_path):
    run = subprocess.run([sys.executable, str(REPO / "tools" / "colcon_check.py"), str(tmp_path / "ws")],
                         capture_output=True, text=True, timeout=900)
    report = (run.stdout + run.stderr)[-6000:]
    assert run.returncode == 0, report
    assert "colcon-check: install layout OK" in run.stdout, report
