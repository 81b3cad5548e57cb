"""Fixtures for the sim node tests: one real `sim` subprocess per test module.

Starting the node (rclpy + PyBullet + scene) takes a second or two, so each module
starts its node once (`sim_node`, parametrized by the module's SIM_PARAMS) and its
tests share it; a test that needs a known scene calls the reset service first.
Teardown stops the node with SIGINT and fails if it did not exit cleanly (rc 0) or
left a process or a /dev/shm/fastdds_* segment behind.

``ros_env``, the function-scoped ``launcher``/``ros_node`` (for tests that start their
own short-lived processes) and the module ``probe`` come from test/conftest.py; here
``module_launcher`` is made stricter and ``probe`` waits for the sim node.
"""
from __future__ import annotations

import pytest

from robot_tasks.testing.launcher import NodeLauncher


@pytest.fixture(scope="module")
def module_launcher(ros_env, tmp_path_factory):
    nodes = NodeLauncher(ros_env, tmp_path_factory.mktemp("sim_logs"))
    yield nodes
    nodes.stop_and_check(require_sigint_exit=True)


@pytest.fixture(scope="module")
def sim_node(request, module_launcher):
    """The module's sim node process (params from the module's SIM_PARAMS)."""
    params = dict(getattr(request.module, "SIM_PARAMS", {}))
    return module_launcher.start_module("robot_tasks.nodes.sim", name="sim", params=params)


@pytest.fixture(scope="module")
def probe(sim_node, probe):
    """The shared in-test node, after the sim node has joined the graph."""
    probe.wait_for_node("sim", timeout=30.0)
    return probe
