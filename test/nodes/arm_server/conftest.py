"""Module-scoped ROS fixtures: one domain, one set of node processes, one probe node per
test module, so a module starts its (slow) sim only once.

- ``ros_env``   fresh ROS_DOMAIN_ID + temp ROS_LOG_DIR for the module (overrides the
                session one of test/conftest.py)
- ``launcher``  this folder's tests get ``module_launcher`` (test/conftest.py): stopped
                when the module ends, failing if a process or a /dev/shm/fastdds_*
                segment is left behind
- ``probe``     from test/conftest.py: an in-test rclpy node spun in a thread
"""
from __future__ import annotations


import pytest

from robot_tasks.testing.harness import RosTestEnv


@pytest.fixture(scope="module")
def ros_env(tmp_path_factory) -> RosTestEnv:
    return RosTestEnv.create_applied(tmp_path_factory.mktemp("ros"))


@pytest.fixture(scope="module")
def launcher(module_launcher):
    return module_launcher
