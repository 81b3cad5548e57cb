"""Fixtures for the sim node tests: one real `sim` subprocess per test module.

Starting the node (rclpy + PyBullet + scene) takes a second or two, so each module
starts its node once (`sim_node`, parametrized by the module's SIM_PARAMS) and its
tests share it; a test that needs a known scene calls the reset service first.
Teardown stops the node with SIGINT and fails if it did not exit cleanly (rc 0) or
left a process or a /dev/shm/fastdds_* segment behind.
"""
from __future__ import annotations

import pytest

from robot_tasks.ros.testing import NodeLauncher, RosTestEnv, RosTestNode


@pytest.fixture(scope="session")
def ros_env(tmp_path_factory) -> RosTestEnv:
    env = RosTestEnv.create(tmp_path_factory.mktemp("ros_sim"))
    env.apply_to_current_process()
    return env


@pytest.fixture(scope="module")
def module_launcher(ros_env, tmp_path_factory):
    nodes = NodeLauncher(ros_env, tmp_path_factory.mktemp("sim_logs"))
    yield nodes
    report = nodes.stop_all()
    print(f"ROS_DOMAIN_ID={ros_env.domain_id}; exits: {report.exits}")
    print(nodes.describe_all(lines=40))
    report.raise_if_dirty()
    unclean = {name: how for name, how in report.exits.items() if how != "SIGINT rc=0"}
    assert not unclean, f"nodes did not stop cleanly on SIGINT: {unclean}"


@pytest.fixture(scope="module")
def sim_node(request, module_launcher):
    """The module's sim node process (params from the module's SIM_PARAMS)."""
    params = dict(getattr(request.module, "SIM_PARAMS", {}))
    return module_launcher.start_module("robot_tasks.nodes.sim", name="sim", params=params)


@pytest.fixture(scope="module")
def probe(ros_env, module_launcher, sim_node, request):
    """An in-test node, after the sim node has joined the graph."""
    node = RosTestNode(f"probe_{request.module.__name__.rsplit('.', 1)[-1]}", ros_env,
                       launcher=module_launcher)
    try:
        node.wait_for_node("sim", timeout=30.0)
        yield node
    finally:
        node.close()


@pytest.fixture
def launcher(ros_env, tmp_path):
    """Function-scoped launcher for tests that start their own short-lived processes."""
    nodes = NodeLauncher(ros_env, tmp_path / "logs")
    yield nodes
    report = nodes.stop_all()
    if nodes.processes:
        print(f"exits: {report.exits}")
        print(nodes.describe_all(lines=40))
    report.raise_if_dirty()


@pytest.fixture
def ros_node(ros_env, launcher, request):
    """Function-scoped in-test node (closed before `launcher` stops the processes)."""
    node = RosTestNode(f"test_{request.node.name}"[:60].replace("[", "_").replace("]", "_")
                       .replace("-", "_").replace(".", "_"), ros_env, launcher=launcher)
    yield node
    node.close()
