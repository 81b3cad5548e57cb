"""Fixtures for the tree_executor integration tests: real processes over loopback DDS.

Same session environment as test/ros (robot_tasks.ros.testing), re-declared here
because pytest conftest fixtures do not cross sibling folders:
- ``ros_env``, ``launcher``, ``ros_node``: as in test/ros/conftest.py;
- ``short_lease_profile``: a copy of the loopback Fast DDS profile for a server that
  is SIGKILLed: its participant announces a 1 s lease (the shipped 10 s lease would
  keep a dead server in the graph for 10 s) and uses UDP on 127.0.0.1 only, no
  shared memory, so the killed process leaves no /dev/shm/fastdds_* files behind;
- ``start_server(**params)``: the test MoveToJoints server (nodes/joint_move_server.py),
  returning (process, events) where events() reads its JSON-lines event log;
- ``start_executor(**params)``: robot_tasks.nodes.tree_executor with this folder's
  trees/, waited for until its ExecuteTree server is ready;
- ``action_clients``: creates (and at teardown destroys) rclpy ActionClients on the
  ros_node's executor thread. rclpy 9.1.2's ActionClient adds itself to the node
  before it sets its ``_lock``, and destroy() clears its handle while the node still
  lists it: done from the test thread while the node spins, either can kill the spin
  thread (AttributeError) and every later wait in the test times out, now and then,
  under load. Use it for every ActionClient in these tests.
"""
from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from robot_tasks.ros.dds import find_profile_file
from robot_tasks.ros.testing import NodeLauncher, RosTestEnv, RosTestNode

HERE = Path(__file__).resolve().parent
TREES = HERE / "trees"
SERVER_SCRIPT = HERE / "nodes" / "joint_move_server.py"


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


class ClientSafeRosTestNode(RosTestNode):
    """RosTestNode whose wait_for_action_server() makes its temporary client on the
    executor thread (see ActionClients)."""

    def wait_for_action_server(self, action_type, action_name: str, timeout: float = 10.0,
                               client=None) -> float:
        if client is not None:
            return super().wait_for_action_server(action_type, action_name, timeout, client=client)
        clients = ActionClients(self)
        try:
            return super().wait_for_action_server(action_type, action_name, timeout,
                                                  client=clients.create(action_type, action_name))
        finally:
            clients.destroy_all()


@pytest.fixture
def ros_node(ros_env, launcher, request):
    name = re.sub(r"\W", "_", f"test_{request.node.name}")[:60]
    node = ClientSafeRosTestNode(name, ros_env, launcher=launcher)
    yield node
    node.close()


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
        proc = launcher.start_script(SERVER_SCRIPT, name=name, params=params, extra_env=extra_env)
        return proc, events

    return start


class ActionClients:
    """ActionClients of a RosTestNode, created and destroyed on its executor thread."""

    def __init__(self, ros_node: RosTestNode):
        self.ros_node = ros_node
        self.clients: list = []

    def _on_executor(self, function, what: str):
        task = self.ros_node.executor.create_task(function)
        return self.ros_node.wait_future(task, 10.0, what)

    def create(self, action_type, action_name: str):
        from rclpy.action import ActionClient

        client = self._on_executor(lambda: ActionClient(self.ros_node.node, action_type, action_name),
                                   f"creating an action client for '{action_name}'")
        self.clients.append(client)
        return client

    def wait_for_server(self, action_type, action_name: str, timeout: float = 10.0):
        """Wait until the server is ready; return the (kept) client that saw it."""
        client = self.create(action_type, action_name)
        self.ros_node.wait_for_action_server(action_type, action_name, timeout=timeout, client=client)
        return client

    def destroy_all(self) -> None:
        clients, self.clients = self.clients, []
        if clients:
            self._on_executor(lambda: [c.destroy() for c in clients], "destroying the action clients")


@pytest.fixture
def action_clients(ros_node):
    clients = ActionClients(ros_node)
    yield clients
    clients.destroy_all()


@pytest.fixture
def start_executor(launcher, ros_node, action_clients):
    from robot_tasks_interfaces.action import ExecuteTree

    def start(name: str = "tree_executor", extra_env: dict | None = None, **params):
        params.setdefault("tree_dirs", [str(TREES)])
        params.setdefault("include_default_trees", False)
        proc = launcher.start_module("robot_tasks.nodes.tree_executor", name=name, params=params,
                                     extra_env=extra_env)
        action_clients.wait_for_server(ExecuteTree, params.get("action_name", "execute_tree"), timeout=15.0)
        return proc

    return start
