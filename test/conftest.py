"""ROS fixtures shared by every test folder (pytest applies this conftest to all of test/).

Real ROS 2 processes over loopback DDS; the classes live in robot_tasks.testing.harness,
these fixtures only wire them to pytest. Fixtures are lazy: a folder that asks for none
of them (bt, control, sim) starts nothing.

Per test:
- ``launcher``        starts node subprocesses; stops them at the end of the test and fails
                      the test if a process or a /dev/shm/fastdds_* segment is left behind;
                      the tail of every log is printed (pytest shows it when a test fails)
- ``ros_node``        an in-test rclpy node spun in a thread (RosTestNode); closed before
                      the launcher stops the processes, and its shared memory checked with theirs
- ``action_clients``  rclpy ActionClients of ``ros_node`` made (and destroyed at teardown)
                      on its executor thread: see RosTestNode.create_action_client for the
                      rclpy 9.1.2 race this avoids. Use it for every ActionClient of a test.
Per module (a module that starts its slow nodes once and shares them between its tests):
- ``module_launcher`` like ``launcher``, stopped when the module ends
- ``probe``           an in-test node on ``module_launcher``, named after the module
Per session:
- ``ros_env``         fresh free ROS_DOMAIN_ID + temp ROS_LOG_DIR, applied to this process.
                      A folder that wants a domain per module overrides it (ros_servers).
"""
from __future__ import annotations

import os

import pytest

from robot_tasks.ros.dds import OPT_OUT_VARIABLE
from robot_tasks.testing.harness import (ActionClients, NodeLauncher, RosTestEnv, RosTestNode,
                                         safe_node_name)

# Tests always run on loopback DDS, whatever the caller's environment says: the deployment
# opt-out is dropped before anything starts (test/ros/test_dds.py proves the rest).
os.environ.pop(OPT_OUT_VARIABLE, None)


@pytest.fixture(scope="session")
def ros_env(tmp_path_factory) -> RosTestEnv:
    return RosTestEnv.create_applied(tmp_path_factory.mktemp("ros"))


@pytest.fixture
def launcher(ros_env, tmp_path):
    nodes = NodeLauncher(ros_env, tmp_path / "logs")
    yield nodes
    nodes.stop_and_check()


@pytest.fixture
def ros_node(ros_env, launcher, request):
    # depends on `launcher` so that it is closed first (fixtures tear down in reverse)
    node = RosTestNode(safe_node_name("test", request.node.name), ros_env, launcher=launcher)
    yield node
    node.close()  # its shm files are checked by the launcher teardown, after the nodes stop


@pytest.fixture
def action_clients(ros_node):
    clients = ActionClients(ros_node)
    yield clients
    clients.destroy_all()


@pytest.fixture(scope="module")
def module_launcher(ros_env, tmp_path_factory):
    nodes = NodeLauncher(ros_env, tmp_path_factory.mktemp("logs"))
    yield nodes
    nodes.stop_and_check()


@pytest.fixture(scope="module")
def probe(ros_env, module_launcher, request):
    node = RosTestNode(safe_node_name("probe", request.module.__name__.rsplit(".", 1)[-1]),
                       ros_env, launcher=module_launcher)
    yield node
    node.close()
