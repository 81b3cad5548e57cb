"""Module-scoped ROS fixtures: one domain, one set of node processes, one probe node per
test module, so a module starts its (slow) sim only once.

- ``ros_env``   fresh ROS_DOMAIN_ID + temp ROS_LOG_DIR for the module
- ``launcher``  starts node subprocesses; stops them when the module ends and fails if a
                process or a /dev/shm/fastdds_* segment is left behind
- ``probe``     an in-test rclpy node spun in a thread (robot_tasks.ros.testing.RosTestNode)
"""
from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))  # server_helpers

from robot_tasks.ros.testing import NodeLauncher, RosTestEnv, RosTestNode  # noqa: E402


@pytest.fixture(scope="module")
def ros_env(tmp_path_factory) -> RosTestEnv:
    env = RosTestEnv.create(tmp_path_factory.mktemp("ros"))
    env.apply_to_current_process()
    return env


@pytest.fixture(scope="module")
def launcher(ros_env, tmp_path_factory):
    nodes = NodeLauncher(ros_env, tmp_path_factory.mktemp("logs"))
    yield nodes
    report = nodes.stop_all()
    print(f"ROS_DOMAIN_ID={ros_env.domain_id}; exits: {report.exits}")
    print(nodes.describe_all(lines=40))
    report.raise_if_dirty()


@pytest.fixture(scope="module")
def probe(ros_env, launcher, request):
    node = RosTestNode(f"probe_{request.module.__name__.rsplit('.', 1)[-1]}", ros_env,
                       launcher=launcher)
    yield node
    node.close()
