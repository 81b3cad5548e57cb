"""ROS fixtures shared by every test folder (pytest applies this conftest to all of test/).

Real ROS 2 processes over loopback DDS; the classes live in robot_tasks.testing.launcher and
robot_tasks.testing.ros_test_node, these fixtures only wire them to pytest. Fixtures are lazy:
a folder that asks for none of them (bt, control, sim) starts nothing.

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
                      A folder that wants a domain per module overrides it (nodes/arm_server).
For the tree_executor and its leaves (nodes/tree_executor, ros/leaves, commands):
- ``short_lease_profile``: a copy of the loopback Fast DDS profile for a server that
  is SIGKILLed: its participant announces a 1 s lease (the shipped 10 s lease would
  keep a dead server in the graph for 10 s) and uses UDP on 127.0.0.1 only, no
  shared memory, so the killed process leaves no /dev/shm/fastdds_* files behind;
- ``start_server(**params)``: the test MoveToJoints server (support/joint_move_server.py),
  returning (process, events) where events() reads its JSON-lines event log;
- ``start_executor(**params)``: robot_tasks.nodes.tree_executor with support/trees/, waited for until its ExecuteTree server is ready.
"""
from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from paths import SUPPORT, TEST_TREES

from robot_tasks.ros.dds import OPT_OUT_VARIABLE, find_profile_file
from robot_tasks.testing.launcher import NodeLauncher, RosTestEnv
from robot_tasks.testing.ros_test_node import ActionClients, RosTestNode, safe_node_name

# Tests always run on loopback DDS, whatever the caller's environment says: the deployment
# opt-out is dropped before anything starts (test/ros/test_dds.py proves the rest).
os.environ.pop(OPT_OUT_VARIABLE, None)


@pytest.fixture(scope="session")
def ros_env(tmp_path_factory):
    env = RosTestEnv.create_applied(tmp_path_factory.mktemp("ros"))
    yield env
    env.release()


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


# ---- the tree_executor and a test MoveToJoints server ---------------------------------
JOINT_MOVE_SERVER = SUPPORT / "joint_move_server.py"


@pytest.fixture(scope="session")
def short_lease_profile(tmp_path_factory) -> Path:
    text = find_profile_file().read_text()
    shortened = text.replace("<leaseDuration><sec>10</sec></leaseDuration>",
                             "<leaseDuration><sec>1</sec></leaseDuration>")
    no_shm = shortened.replace("<transport_id>shm_transport</transport_id>\n        </userTransports>",
                               "</userTransports>")
    assert shortened != text and no_shm != shortened, \
        "the shipped DDS profile changed: update the replacements in short_lease_profile"
    shortened = no_shm
    path = tmp_path_factory.mktemp("dds") / "fastdds_short_lease.xml"
    path.write_text(shortened)
    return path


class EventLog:
    """The test server's JSON-lines event log."""

    def __init__(self, path: Path):
        self.path = path

    def __call__(self) -> list[dict]:
        if not self.path.exists():
            return []
        return [json.loads(line) for line in self.path.read_text().splitlines() if line.strip()]

    def names(self) -> list[str]:
        return [e["event"] for e in self()]


@pytest.fixture
def start_server(launcher, tmp_path):
    count = [0]

    def start(name: str = "joint_move_server", extra_env: dict | None = None, **params):
        count[0] += 1
        events = EventLog(tmp_path / f"events_{count[0]}.jsonl")
        params.setdefault("event_log", str(events.path))
        proc = launcher.start_script(JOINT_MOVE_SERVER, name=name, params=params, extra_env=extra_env)
        return proc, events

    return start


@pytest.fixture
def start_executor(launcher, ros_node, action_clients):
    from robot_tasks_interfaces.action import ExecuteTree

    def start(name: str = "tree_executor", extra_env: dict | None = None, **params):
        params.setdefault("tree_dirs", [str(TEST_TREES)])
        params.setdefault("include_default_trees", False)
        params.setdefault("groot2_port", 0)   # tests that watch a run pick their own free ports
        proc = launcher.start_module("robot_tasks.nodes.tree_executor", name=name, params=params,
                                     extra_env=extra_env)
        action_clients.wait_for_server(ExecuteTree, params.get("action_name", "execute_tree"), timeout=15.0)
        return proc

    return start
