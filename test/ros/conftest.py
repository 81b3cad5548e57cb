"""Fixtures for tests that run real ROS 2 processes over loopback DDS.

- ``ros_env``     (session) fresh ROS_DOMAIN_ID + temp ROS_LOG_DIR, applied to this process
- ``launcher``    starts node subprocesses; stops them at the end of the test and fails
                  the test if a process or a /dev/shm/fastdds_* segment is left behind;
                  the tail of every log is printed (pytest shows it when a test fails)
- ``ros_node``    an in-test rclpy node spun in a thread (see RosTestNode); closed before
                  the launcher stops the processes, and its shared memory checked with theirs

The classes live in robot_tasks.ros.testing; these fixtures only wire them to pytest.
"""
from __future__ import annotations

import re

import pytest

from robot_tasks.ros.testing import NodeLauncher, RosTestEnv, RosTestNode

@pytest.fixture(scope="session")
def ros_env(tmp_path_factory) -> RosTestEnv:
    env = RosTestEnv.create(tmp_path_factory.mktemp("ros"))
    env.apply_to_current_process()
    return env


@pytest.fixture
def launcher(ros_env, tmp_path):
    nodes = NodeLauncher(ros_env, tmp_path / "logs")
    yield nodes
    report = nodes.stop_all()
    if nodes.processes:
        print(f"ROS_DOMAIN_ID={ros_env.domain_id}; exits: {report.exits}")
        print(nodes.describe_all(lines=40))
    report.raise_if_dirty()


@pytest.fixture
def ros_node(ros_env, launcher, request):
    # depends on `launcher` so that it is closed first (fixtures tear down in reverse)
    name = re.sub(r"\W", "_", f"test_{request.node.name}")[:60]
    node = RosTestNode(name, ros_env, launcher=launcher)
    yield node
    node.close()  # its shm files are checked by the launcher teardown, after the nodes stop
