"""Blackboard <-> JSON (BT.CPP `ExportBlackboardToJSON` / `ImportBlackboardFromJSON`) and
the ROOT blackboard of 4.10's Groot2 BLACKBOARD reply.

- "differential": against behaviortreepy (BT.CPP 4.8.2). It exposes the exporter only
  through its Groot2Publisher, so the oracle runs in a fresh network namespace with
  only loopback (BT.CPP binds tcp://*) and we compare its BLACKBOARD payload with ours.
- "blackboard.cpp / json_export.cpp": 4.10's code, written as expectations.
- "gtest_groot2_publisher_integration": transcribed from 4.10's tests (the ROOT export,
  #1132). behaviortreepy is 4.8.2, whose publisher has no ROOT, so these run on ours only.
"""
from __future__ import annotations

import json
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import msgpack
import pytest

from robot_tasks.bt import BehaviorTreeFactory, Blackboard
from robot_tasks.bt.blackboard_json import export_blackboard_to_json, import_blackboard_from_json, register_json_type
from robot_tasks.bt.groot2.blackboard_dump import DumpRefused, blackboards_dict, blackboards_dump

pytestmark = pytest.mark.timeout(120)
HERE = Path(__file__).resolve().parent
REPO = HERE.parents[1]

ORACLE_CASE = {
    "xml": '<root BTCPP_format="4"><BehaviorTree ID="Main"><Script code="d := 2.5; s := \'x\'; n := 7; '
           'neg := -3; e := 1e-3"/></BehaviorTree></root>',
    "values": {"flag": ["bool", True], "off": ["bool", False], "count": ["int", 42], "ratio": ["double", 0.25],
               "name": ["string", "red_cube"], "numeric_text": ["string", "12"]},
    "names": "Main",
}


def oracle_dump(case):
    if shutil.which("unshare") is None or shutil.which("ip") is None:
        pytest.skip("unshare/ip not available: cannot isolate BT.CPP's tcp://* bind")
    script = HERE / "groot2_harness" / "oracle_blackboard.py"
    command = f"ip link set lo up && exec {sys.executable} {script}"
    result = subprocess.run(["unshare", "-rn", "sh", "-c", command], input=json.dumps(case), capture_output=True,
                            text=True, timeout=60,
                            env={"PYTHONPATH": str(REPO), "PATH": "/usr/sbin:/usr/bin:/sbin:/bin"})
    if result.returncode != 0 and "Operation not permitted" in result.stderr:
        pytest.skip(f"no user/network namespaces here: {result.stderr.strip()}")
    assert result.returncode == 0, result.stderr[-3000:]
    return json.loads(result.stdout)


def test_export_matches_btcpp_groot2_dump():
    """differential: numbers, strings and bools (a bool is exported as 1/0: BT.CPP's Any
    stores every integral type, bool too, as int64)."""
    board = Blackboard()
    for key, (_, value) in ORACLE_CASE["values"].items():
        board.set(key, value)
    tree = BehaviorTreeFactory().create_tree_from_text(ORACLE_CASE["xml"], board)
    tree.tick_while_running()
    ours = blackboards_dict({"Main": board}, ["Main"])
    # compared as JSON text: in Python True == 1, in JSON true != 1
    assert json.dumps(ours, sort_keys=True) == json.dumps(oracle_dump(ORACLE_CASE), sort_keys=True)
    assert type(ours["Main"]["flag"]) is int and ours["Main"]["off"] == 0


def test_export_types_and_owned_keys():
    """json_export.cpp toJson + blackboard.cpp getKeys: str/int/float as they are, bool as
    a number (in a vector<bool> it stays a bool), an empty entry or a value with no JSON
    form is null; only the keys the board holds (a remapped key is the parent's)."""
    parent = Blackboard()
    child = Blackboard(parent=parent)
    child.remap("alias", "target")
    parent.set("target", 1)
    child.set("alias", 2)                   # writes the parent's entry
    child.set("flags", [True, False])
    child.set("pose", {"x": 1.0, "frame": "world"})
    child.set("thing", object())
    child.create_entry("empty")
    assert export_blackboard_to_json(child) == {"empty": None, "flags": [True, False],
                                                "pose": {"frame": "world", "x": 1.0}, "thing": None}
    assert export_blackboard_to_json(parent) == {"target": 2}


def test_import_creates_overwrites_and_empties():
    """blackboard.cpp ImportBlackboardFromJSON: a missing key is created with the JSON
    value's type; an existing entry takes the value as it is; null empties the entry."""
    board = Blackboard()
    board.create_entry("typed", int)
    board.set("gone", "x")
    skipped = import_blackboard_from_json({"n": 3, "f": 0.5, "b": True, "s": "hi", "l": [1, 2],
                                           "typed": "text", "gone": None}, board)
    assert skipped == {}
    assert board.as_dict() == {"typed": "text", "n": 3, "f": 0.5, "b": True, "s": "hi", "l": [1, 2]}
    assert board.get_entry("n").type is int and board.get_entry("s").type is None
    assert board.has_entry("gone") and "gone" not in board
    with pytest.raises(Exception):
        board.set("n", 2.5)                 # typed like BT.CPP's createEntry(key, TypeInfo<int>)


def test_round_trip_and_registered_types():
    """json_export.h addConverter: a registered type travels with "__type"; an unknown
    "__type" is skipped (BT.CPP skips it silently; we also return why)."""
    @dataclass
    class Point:
        x: float
        y: float

    register_json_type(Point, lambda p: {"x": p.x, "y": p.y}, lambda d: Point(d["x"], d["y"]), "Point2D")
    board = Blackboard()
    board.set("p", Point(1.0, 2.0))
    board.set("ps", [Point(0.0, 1.0)])
    board.set("label", "a")
    exported = export_blackboard_to_json(board)
    assert exported["p"] == {"x": 1.0, "y": 2.0, "__type": "Point2D"}
    copy = Blackboard()
    assert import_blackboard_from_json(json.loads(json.dumps(exported)), copy) == {}
    assert copy.get("p") == Point(1.0, 2.0) and copy.get("ps") == [Point(0.0, 1.0)] and copy.get("label") == "a"
    skipped = import_blackboard_from_json({"q": {"__type": "Nope", "x": 1}}, copy)
    assert list(skipped) == ["q"] and "Nope" in skipped["q"] and not copy.has_entry("q")


def test_at_keys_import_into_the_root():
    """blackboard.cpp getEntry/createEntry: '@key' is the root blackboard's key."""
    root = Blackboard()
    child = Blackboard(parent=root)
    import_blackboard_from_json({"@shared": 5, "local": 1}, child)
    assert root.get("shared") == 5 and export_blackboard_to_json(child) == {"local": 1}


# ---- ROOT in the BLACKBOARD reply (4.10) ----------------------------------------------------------
NAMED_SUBTREES = """<root BTCPP_format="4" main_tree_to_execute="MainTree">
  <BehaviorTree ID="MainTree"><Sequence><AlwaysSuccess name="MainAction"/>
    <SubTree ID="ChildA" name="ChildA"/><SubTree ID="ChildB" name="ChildB"/></Sequence></BehaviorTree>
  <BehaviorTree ID="ChildA"><AlwaysSuccess name="ChildActionA"/></BehaviorTree>
  <BehaviorTree ID="ChildB"><AlwaysSuccess name="ChildActionB"/></BehaviorTree>
</root>"""


def boards_of(tree):
    return {(s.instance_name or s.tree_id): s.blackboard for s in tree.subtrees}


def test_no_root_without_an_external_blackboard():
    """gtest_groot2_publisher_integration BlackboardDump_NoRootWithoutExternalBlackboard."""
    main = Blackboard()
    main.set("local_value", 7)
    tree = BehaviorTreeFactory().create_tree_from_text(
        '<root BTCPP_format="4"><BehaviorTree ID="MainTree"><AlwaysSuccess/></BehaviorTree></root>', main)
    assert blackboards_dict(boards_of(tree), ["MainTree"]) == {"MainTree": {"local_value": 7}}


def test_exports_an_external_root_blackboard():
    """gtest_groot2_publisher_integration BlackboardDump_ExportsExternalRootBlackboard."""
    external = Blackboard()
    external.set("shared_value", 42)
    main = Blackboard(parent=external)
    main.set("local_value", 7)
    tree = BehaviorTreeFactory().create_tree_from_text(
        '<root BTCPP_format="4"><BehaviorTree ID="MainTree"><AlwaysSuccess/></BehaviorTree></root>', main)
    assert blackboards_dict(boards_of(tree), ["MainTree"]) == {"MainTree": {"local_value": 7},
                                                               "ROOT": {"shared_value": 42}}


def test_deduplicates_a_shared_external_root():
    """gtest_groot2_publisher_integration BlackboardDump_DeduplicatesSharedExternalRoot."""
    external = Blackboard()
    external.set("shared_value", 99)
    tree = BehaviorTreeFactory().create_tree_from_text(NAMED_SUBTREES, Blackboard(parent=external))
    assert len(tree.subtrees) == 3
    dump = blackboards_dict(boards_of(tree), ["MainTree", "ChildA", "ChildB"])
    assert set(dump) == {"MainTree", "ChildA", "ChildB", "ROOT"} and dump["ROOT"] == {"shared_value": 99}


def test_a_subtree_alone_brings_the_main_tree_as_root():
    """groot2_publisher.cpp: a SubTree's blackboard has a parent, so its root (here the
    main tree's blackboard) is exported as ROOT -- the difference from 4.8.2 that
    test_groot2_publisher.py allows."""
    main = Blackboard()
    main.set("x", 1)
    tree = BehaviorTreeFactory().create_tree_from_text(NAMED_SUBTREES, main)
    assert blackboards_dict(boards_of(tree), ["ChildA"]) == {"ChildA": None, "ROOT": {"x": 1}}


def test_rejects_the_reserved_root_name():
    """gtest_groot2_publisher_integration BlackboardDump_RejectsReservedRootNameCollision."""
    external = Blackboard()
    main = Blackboard(parent=external)
    tree = BehaviorTreeFactory().create_tree_from_text(
        '<root BTCPP_format="4"><BehaviorTree ID="ROOT"><AlwaysSuccess/></BehaviorTree></root>', main)
    with pytest.raises(DumpRefused, match=r"reserved name \[ROOT\]"):
        blackboards_dump(boards_of(tree), b"ROOT")


def test_rejects_conflicting_external_roots():
    """gtest_groot2_publisher_integration BlackboardDump_RejectsConflictingExternalRoots
    (two boards with different roots in one request)."""
    first, second = Blackboard(), Blackboard()
    boards = {"A": Blackboard(parent=first), "B": Blackboard(parent=second)}
    with pytest.raises(DumpRefused, match="multiple external root blackboards"):
        blackboards_dict(boards, ["A", "B"])


def test_the_publisher_sends_root_and_error_replies():
    """Through the socket (127.0.0.1): ROOT in the reply, a refusal as ["error", reason]."""
    pytest.importorskip("zmq")
    sys.path.insert(0, str(REPO / "test" / "support"))
    from groot2_client import Groot2Client, free_port_pair

    from robot_tasks.bt.groot2 import Groot2Publisher

    external = Blackboard()
    external.set("shared_value", 3)
    tree = BehaviorTreeFactory().create_tree_from_text(NAMED_SUBTREES, Blackboard(parent=external))
    port = free_port_pair()
    with Groot2Publisher(tree, port):
        client = Groot2Client(port)
        try:
            reply = client.request("B", b"MainTree;ChildA")
            assert msgpack.unpackb(reply.payload[0], raw=False)["ROOT"] == {"shared_value": 3}
        finally:
            client.close()
    rooted = BehaviorTreeFactory().create_tree_from_text(
        '<root BTCPP_format="4"><BehaviorTree ID="ROOT"><AlwaysSuccess/></BehaviorTree></root>',
        Blackboard(parent=Blackboard()))
    port = free_port_pair()
    with Groot2Publisher(rooted, port):
        client = Groot2Client(port)
        try:
            reply = client.request("B", b"ROOT")
            assert reply.is_error and b"reserved name [ROOT]" in reply.frames[1]
        finally:
            client.close()
