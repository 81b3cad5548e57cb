"""Fixtures for the tree_executor integration tests: real processes over loopback DDS.

``ros_env``, ``launcher``, ``ros_node`` and ``action_clients`` come from test/conftest.py
(use ``action_clients`` for every ActionClient in these tests). Here:
- ``short_lease_profile``: a copy of the loopback Fast DDS profile for a server that
  is SIGKILLed: its participant announces a 1 s lease (the shipped 10 s lease would
  keep a dead server in the graph for 10 s) and uses UDP on 127.0.0.1 only, no
  shared memory, so the killed process leaves no /dev/shm/fastdds_* files behind;
- ``start_server(**params)``: the test MoveToJoints server (nodes/joint_move_server.py),
  returning (process, events) where events() reads its JSON-lines event log;
- ``start_executor(**params)``: robot_tasks.nodes.tree_executor with this folder's
  trees/, waited for until its ExecuteTree server is ready.
"""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from robot_tasks.ros.dds import find_profile_file

HERE = Path(__file__).resolve().parent
TREES = HERE / "trees"
SERVER_SCRIPT = HERE / "nodes" / "joint_move_server.py"


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
