"""Blackboard scoping and typing rules."""
import pytest

from robot_tasks.bt import Blackboard, LogicError


def test_get_set_and_missing_or_empty_entries():
    board = Blackboard()
    board.set("a", 1)
    assert board.get("a") == 1
    with pytest.raises(KeyError):
        board.get("missing")
    board.create_entry("empty", int)
    assert board.has_entry("empty") and "empty" not in board
    with pytest.raises(KeyError, match="empty"):
        board.get("empty")
    assert board.get("empty", 5) == 5


def test_typed_entries_convert_or_refuse():
    board = Blackboard()
    board.create_entry("n", int)
    board.set("n", "42")
    assert board.get("n") == 42
    board.set("n", 3.0)
    assert board.get("n") == 3 and isinstance(board.get("n"), int)
    with pytest.raises(LogicError, match="type"):
        board.set("n", "abc")
    with pytest.raises(LogicError):
        board.set("n", 2.5)
    board.create_entry("x", float)
    board.set("x", 2)
    assert board.get("x") == 2.0 and isinstance(board.get("x"), float)


def test_untyped_entries_accept_anything_and_string_ports_stay_generic():
    board = Blackboard()
    board.create_entry("s", str)
    board.set("s", 5)
    assert board.get("s") == 5
    board.set("s", "text")
    assert board.get("s") == "text"


def test_conflicting_declared_types():
    board = Blackboard()
    board.create_entry("k", int)
    with pytest.raises(LogicError, match="already created with type"):
        board.create_entry("k", list)
    board.create_entry("k", str)  # strings convert to anything: allowed


def test_root_keys_with_at():
    root = Blackboard()
    child = Blackboard(parent=root)
    child.set("@g", 1)
    assert root.get("g") == 1
    assert child.get("@g") == 1
    with pytest.raises(KeyError):
        child.get("g")  # not remapped: isolated


def test_explicit_remapping_and_autoremap():
    root = Blackboard()
    child = Blackboard(parent=root)
    child.remap("inner", "outer")
    child.set("inner", 5)
    assert root.get("outer") == 5
    auto = Blackboard(parent=root, autoremap=True)
    auto.set("shared", 1)
    auto.set("_private", 2)
    assert root.get("shared") == 1
    assert not root.has_entry("_private") and auto.get("_private") == 2
    root.set("from_parent", 3)
    assert auto.get("from_parent") == 3


def test_unset_removes_local_entry_like_btcpp():
    board = Blackboard()
    board.set("a", 1)
    assert board.unset("a")
    assert not board.has_entry("a")
    assert not board.unset("a")


def test_keys_and_items():
    board = Blackboard()
    board.set("a", 1)
    board.create_entry("b", int)
    assert sorted(board.keys()) == ["a", "b"]
    assert board.as_dict() == {"a": 1}
