"""Our Groot2Publisher against BT.CPP's (behaviortreepy 0.1.4 = BT.CPP 4.8.2), through one client.

The same scripted sessions (groot2_harness/scenarios.py) run against both publishers
with the same test-side ZMQ client; the transcripts (reply headers, FULLTREE XML,
STATUS buffers after each tick and halt, BLACKBOARD MessagePack, hooks, breakpoint
notices, recorded transitions, error replies) must be equal, except for these
differences, each a version note (4.8.2 oracle vs our 4.10 target) or our choice:

1. FULLTREE: the text differs in layout (indentation, quoting, attribute order) and our
   `<root>` also names `main_tree_to_execute`; the element structure, names, `_uid`s,
   `_fullpath`s and ports are compared and equal.
2. FULLTREE models: `TryCatch` is ours only (added to BT.CPP in 4.9); the builtin
   `SubTree` model with an `_autoremap` "port" is 4.8.2's only (we list no model for
   the SubTree builtin: `_autoremap` is a reserved attribute, not a port). Port type
   names are not compared (BT.CPP writes demangled C++ names such as `unsigned int` or
   `std::shared_ptr<std::deque<int>>`, 4.10 made the Loop queue untyped, we write the
   Python type's BT.CPP name); descriptions are our own words.
3. BLACKBOARD: 4.8.2 sends nil for a string that SetBlackboard copied from another
   string entry (observed; its JSON exporter does not convert that entry); we send the
   string.
4. BLACKBOARD: when a SubTree's blackboard is asked for, 4.10 also sends its root
   blackboard (the main tree's) as `ROOT` (groot2_publisher.cpp, #1132); 4.8.2 does
   not. Our extra `ROOT` must equal the main tree's dump; the rest is compared.
BT.CPP binds tcp://* (all interfaces) and cannot be told otherwise, so the oracle runs
in a fresh network namespace that has only loopback (`unshare -rn`); when that is not
possible the comparison is skipped, with the reason.
"""
import json
import shutil
import subprocess
import sys
import threading
import time
from pathlib import Path

import defusedxml.ElementTree as SafeET
import msgpack
import pytest
import zmq

sys.path.insert(0, str(Path(__file__).resolve().parent))

from groot2_client import Groot2Client, free_port_pair  # noqa: E402
from groot2_harness.scenarios import SCENARIOS, run  # noqa: E402
from groot2_harness.sides import OurSide  # noqa: E402

from robot_tasks.bt import BehaviorTreeFactory, NodeStatus  # noqa: E402
from robot_tasks.bt.groot2 import Groot2Error, Groot2Publisher  # noqa: E402

pytestmark = pytest.mark.timeout(120)
HERE = Path(__file__).resolve().parent
REPO = HERE.parents[1]

ONLY_OURS_MODELS = {("Control", "TryCatch")}       # BT.CPP >= 4.9
ONLY_ORACLE_MODELS = {("SubTree", "SubTree")}      # 4.8.2 lists the builtin with `_autoremap`


# ---- running the oracle isolated -----------------------------------------------------------
def run_oracle_isolated(names):
    """Transcripts of behaviortreepy's publisher, run in a namespace with only loopback."""
    if shutil.which("unshare") is None or shutil.which("ip") is None:
        pytest.skip("unshare/ip not available: cannot isolate BT.CPP's tcp://* bind")
    command = (f"ip link set lo up && exec {sys.executable} {HERE / 'groot2_harness' / 'oracle_main.py'} "
               + " ".join(names))
    result = subprocess.run(["unshare", "-rn", "sh", "-c", command], capture_output=True, text=True, timeout=100,
                            env={"PYTHONPATH": str(REPO), "PATH": "/usr/sbin:/usr/bin:/sbin:/bin"})
    if result.returncode != 0 and "unshare" in result.stderr and "Operation not permitted" in result.stderr:
        pytest.skip(f"no user/network namespaces here: {result.stderr.strip()}")
    assert result.returncode == 0, result.stderr[-3000:]
    return json.loads(result.stdout)


@pytest.fixture(scope="module")
def transcripts():
    names = list(SCENARIOS)
    oracle = run_oracle_isolated(names)
    ours = {name: run(name, OurSide) for name in names}
    return oracle, ours


# ---- FULLTREE structure --------------------------------------------------------------------
def tree_structure(xml):
    """Every BehaviorTree as nested (tag, attributes) tuples, and the models by (kind, ID)."""
    root = SafeET.fromstring(xml)

    def node(element):
        return (element.tag, tuple(sorted(element.attrib.items())), tuple(node(child) for child in element))

    trees = [(tree.get("ID"), tree.get("_fullpath"), tuple(node(child) for child in tree))
             for tree in root.findall("BehaviorTree")]
    models = {(model.tag, model.get("ID")): sorted((port.tag, port.get("name"), port.get("default"))
                                                   for port in model)
              for model in root.find("TreeNodesModel")}
    return trees, models


def assert_same_fulltree(ours_xml, oracle_xml):
    our_trees, our_models = tree_structure(ours_xml)
    oracle_trees, oracle_models = tree_structure(oracle_xml)
    assert our_trees == oracle_trees
    assert set(our_models) - set(oracle_models) == ONLY_OURS_MODELS
    assert set(oracle_models) - set(our_models) == ONLY_ORACLE_MODELS
    for key in set(our_models) & set(oracle_models):
        assert our_models[key] == oracle_models[key], key


def known_blackboard_difference(name, label, ours, oracle):
    """Differences 3 and 4 of the module docstring, and nothing else."""
    if label[0] != "B" or not isinstance(ours.get("blackboards"), dict):
        return False
    expected = json.loads(json.dumps(ours))
    boards = expected["blackboards"]
    if "ROOT" in boards:
        root = boards.pop("ROOT")
        if set(boards) <= {"Main"} or ("Main" in boards and boards["Main"] != root):
            return False
    if name == "details":
        boards["second"]["copy"] = None
    return expected == oracle


def first_difference(name, ours, oracle):
    """The first step where the two transcripts differ (None when they agree)."""
    if [label for label, _ in ours] != [label for label, _ in oracle]:
        return f"steps differ: ours {[label for label, _ in ours]} != BT.CPP {[label for label, _ in oracle]}"
    for (label, mine), (_, theirs) in zip(ours, oracle):
        mine, theirs = json.loads(json.dumps(mine)), json.loads(json.dumps(theirs))
        if isinstance(mine, dict) and "xml" in mine:
            assert_same_fulltree(mine.pop("xml"), theirs.pop("xml"))
        if known_blackboard_difference(name, label, mine, theirs):
            continue
        if mine != theirs:
            return f"step {label}: ours {mine} != BT.CPP {theirs}"
    return None


@pytest.mark.parametrize("name", list(SCENARIOS))
def test_same_session_as_btcpp(transcripts, name):
    oracle, ours = transcripts[0][name], transcripts[1][name]
    difference = first_difference(name, ours, oracle)
    assert difference is None, difference


def test_scenarios_cover_what_groot2_uses(transcripts):
    """The comparison is only as strong as the scenarios: check they exercise each part."""
    ours = transcripts[1]
    kinds = {label[1] if label[0] == "json" else label[0] for steps in ours.values() for label, _ in steps}
    assert {"T", "S", "B", "I", "U", "R", "D", "A", "X", "r", "t", "pub", "halt"} <= kinds
    statuses = {status for steps in ours.values() for _, entry in steps if isinstance(entry, dict)
                for _, status in entry.get("status", [])}
    assert {0, 1, 2, 11, 12, 13} <= statuses


# ---- our publisher alone ---------------------------------------------------------------------
XML = ('<root BTCPP_format="4"><BehaviorTree ID="Main"><Sequence><Script code="n := 1"/>'
       '<Sleep msec="{wait}"/></Sequence></BehaviorTree></root>')


@pytest.fixture
def published():
    tree = BehaviorTreeFactory().create_tree_from_text(XML)
    tree.root_blackboard.set("wait", 10_000)
    port = free_port_pair()
    publisher = Groot2Publisher(tree, port, max_heartbeat_delay=0.3)
    client = Groot2Client(port)
    client.wait_connected()
    yield tree, publisher, client, port
    client.close()
    publisher.close()
    tree.halt_tree()


def test_reply_header_layout(published):
    _, publisher, client, _ = published
    reply = client.request("S", unique_id=0xA1B2C3D4)
    head = reply.frames[0]
    assert len(head) == 22 and head[:6] == bytes([2, ord("S"), 0xD4, 0xC3, 0xB2, 0xA1])
    assert head[6:] == publisher.tree_uuid and (head[12] & 0xF0) == 0x40 and (head[14] & 0xC0) == 0x80
    assert client.request("T").uuid == publisher.tree_uuid  # the same UUID on every reply


def test_status_buffer_follows_the_tree(published):
    tree, _, client, _ = published
    assert client.request("S").payload[0] == bytes([1, 0, 0, 2, 0, 0, 3, 0, 0])
    tree.tick_once()
    assert client.request("S").payload[0] == bytes([1, 0, 1, 2, 0, 2, 3, 0, 1])
    tree.halt_tree()
    assert client.request("S").payload[0] == bytes([1, 0, 11, 2, 0, 12, 3, 0, 11])
    reply = client.request("B", "Main")
    assert msgpack.unpackb(reply.payload[0]) == {"Main": {"n": 1, "wait": 10_000}}


def test_heartbeat_disables_hooks_and_brings_them_back(published):
    tree, publisher, client, _ = published
    client.request_json("I", {"enabled": True, "uid": 2, "mode": 0, "once": False,
                              "desired_status": "SKIPPED", "position": 0})
    time.sleep(0.5)  # no request for longer than the 0.3 s heartbeat: hooks off
    assert publisher.hooks.dump()[0]["enabled"] is False
    assert tree.tick_once() is NodeStatus.RUNNING  # not blocked
    tree.halt_tree()
    client.request("S")  # a request is a heartbeat: hooks on again
    time.sleep(0.05)
    assert publisher.hooks.dump()[0]["enabled"] is True


def test_close_releases_a_blocked_breakpoint_and_detaches(published):
    tree, publisher, client, _ = published
    client.request_json("I", {"enabled": True, "uid": 2, "mode": 0, "once": False,
                              "desired_status": "FAILURE", "position": 0})
    results = []
    ticker = threading.Thread(target=lambda: results.append(tree.tick_once()))
    ticker.start()
    assert client.wait_breakpoint() is not None
    assert ticker.is_alive()  # paused on the breakpoint
    publisher.close()
    ticker.join(3)
    assert not ticker.is_alive() and results == [NodeStatus.RUNNING]  # released, the node ticked
    assert not tree._status_observers
    assert all("_unobserved_class" not in type(node).__dict__ for node in tree.nodes)
    assert all("execute_tick" not in vars(node) for node in tree.nodes)  # lean tick path again


def test_bad_json_is_an_error_reply_not_a_dead_server(published):
    _, _, client, _ = published
    assert client.request("I", "{not json").is_error
    assert client.request_json("U", {"uid": 2}).is_error
    assert not client.request("S").is_error


def test_binds_loopback_only_and_refuses_a_used_port(published):
    tree, publisher, _, port = published
    endpoint = publisher._server.getsockopt(zmq.LAST_ENDPOINT).decode()
    assert endpoint == f"tcp://127.0.0.1:{port}"
    with pytest.raises(Groot2Error, match="using port"):
        Groot2Publisher(tree, port)
    with pytest.raises(Groot2Error, match="using port"):
        Groot2Publisher(tree, port - 1)  # would need port as its PUB port


def test_context_manager_closes():
    tree = BehaviorTreeFactory().create_tree_from_text(XML)
    port = free_port_pair()
    with Groot2Publisher(tree, port) as publisher:
        assert tree._status_observers
    assert publisher._closed and not tree._status_observers
    with Groot2Publisher(tree, port):  # the ports are free again
        pass


def test_engine_imports_without_zmq_or_msgpack():
    code = ("import sys; sys.modules['zmq'] = None; sys.modules['msgpack'] = None\n"
            "import robot_tasks.bt, robot_tasks.bt.groot2\n"
            "from robot_tasks.bt.groot2 import Groot2Publisher, Groot2Error\n"
            "tree = robot_tasks.bt.BehaviorTreeFactory().create_tree_from_text("
            "'<root BTCPP_format=\"4\"><BehaviorTree ID=\"M\"><AlwaysSuccess/></BehaviorTree></root>')\n"
            "try:\n    Groot2Publisher(tree)\nexcept Groot2Error as e:\n    print('refused:', e)\n")
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60,
                            env={"PYTHONPATH": str(REPO)})
    assert result.returncode == 0, result.stderr
    assert "refused: Groot2Publisher needs pyzmq" in result.stdout


def test_polling_while_the_tree_ticks_in_another_thread():
    """Groot2 polls STATUS/BLACKBOARD while the tree runs: bounded (200 requests), every
    reply well formed, every status byte a valid code, nothing left running after."""
    factory = BehaviorTreeFactory()
    tree = factory.create_tree_from_text(
        '<root BTCPP_format="4"><BehaviorTree ID="Main"><Repeat num_cycles="-1"><Sequence>'
        '<Script code="k := 1"/><Sleep msec="1"/><AlwaysSuccess/></Sequence></Repeat></BehaviorTree></root>')
    port = free_port_pair()
    stop = threading.Event()

    def tick():
        while not stop.is_set():
            tree.tick_once()
            tree.sleep(0.001)
        tree.halt_tree()

    with Groot2Publisher(tree, port):
        ticker = threading.Thread(target=tick)
        ticker.start()
        client = Groot2Client(port)
        try:
            seen = set()
            for index in range(200):
                reply = client.request("S" if index % 4 else "B", *([] if index % 4 else ["Main"]))
                assert not reply.is_error and reply.header_size == 22
                if index % 4:
                    payload = reply.payload[0]
                    assert len(payload) == 3 * len(tree.nodes)
                    seen.update(payload[2::3])
            assert seen <= {0, 1, 2, 3, 4, 11, 12, 13} and 1 in seen
        finally:
            stop.set()
            ticker.join(5)
            client.close()
    assert not ticker.is_alive()
