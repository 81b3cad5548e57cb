"""Scripts on the engine's real Blackboard: '@' root keys, empty port entries, scoping."""
import pytest

from robot_tasks.bt.blackboard import Blackboard
from robot_tasks.bt.errors import ScriptError
from robot_tasks.bt.scripting import parse_script


def test_root_keys_reach_the_root_board_from_a_subtree_board():
    root = Blackboard.create()
    child = Blackboard.create(parent=root)
    parse_script("@mode := 'auto'; local := 1").evaluate(child, {})
    assert root.get("mode") == "auto"
    assert not root.has_entry("local") and child.get("local") == 1
    assert parse_script("@mode == 'auto' ? 10 : 20").evaluate(child, {}) == 10


def test_empty_entry_created_by_a_port_remap():
    board = Blackboard.create()
    board.create_entry("goal")  # what `{goal}` in a port does at tree creation
    with pytest.raises(ScriptError, match=r"left operand of the operator \[\+\] is not"):
        parse_script("goal + 1").evaluate(board, {})
    assert parse_script("goal").evaluate(board, {}) is None
    parse_script("goal = 5").evaluate(board, {})  # `=` works: the entry exists
    assert board.get("goal") == 5


def test_missing_entry_needs_create_operator():
    board = Blackboard.create()
    with pytest.raises(ScriptError, match=r"use the operator \[:=\] instead of \[=\]"):
        parse_script("x = 1").evaluate(board, {})
    assert not board.has_entry("x")


def test_counter_keeps_int_type():
    board = Blackboard.create()
    program = parse_script("n := 0")
    program.evaluate(board, {})
    step = parse_script("n += 1; n < 3")
    results = [step.evaluate(board, {}) for _ in range(3)]
    assert results == [1.0, 1.0, 0.0]
    assert board.get("n") == 3 and type(board.get("n")) is int
