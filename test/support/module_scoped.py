"""Fixtures for a test folder whose modules each start their (slow) node processes once.

A conftest imports them to override test/conftest.py's session domain and per-test
launcher: `from module_scoped import launcher, ros_env  # noqa: F401`.
- ``ros_env``   a fresh ROS_DOMAIN_ID + temp ROS_LOG_DIR per test module
- ``launcher``  the module's ``module_launcher`` (test/conftest.py): its processes are
                stopped when the module ends, failing if a process or a
                /dev/shm/fastdds_* segment is left behind
"""
from __future__ import annotations

import pytest

from robot_tasks.testing.launcher import RosTestEnv


@pytest.fixture(scope="module")
def ros_env(tmp_path_factory):
    env = RosTestEnv.create_applied(tmp_path_factory.mktemp("ros"))
    yield env
    env.release()


@pytest.fixture(scope="module")
def launcher(module_launcher):
    return module_launcher
