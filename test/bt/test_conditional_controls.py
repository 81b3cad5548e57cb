"""IfThenElse, WhileDoElse and Switch2..Switch6."""
import pytest
from bt_helpers import F, K, R, S, build, make_factory, tree_xml

from robot_tasks.bt import LogicError


def test_if_then_else_branches():
    tree, book = build('<IfThenElse><Leaf name="C"/><Leaf name="T"/><Leaf name="E"/></IfThenElse>')
    book.set(C="SF", T="F", E="S")
    assert tree.tick_once() is F
    assert tree.tick_once() is S
    assert book.ticks == {"C": 2, "T": 1, "E": 1}


def test_if_then_else_latches_the_branch_without_rechecking():
    tree, book = build('<IfThenElse><Leaf name="C"/><Leaf name="T"/><Leaf name="E"/></IfThenElse>')
    book.set(C="SF", T="RRS")
    assert [tree.tick_once() for _ in range(3)] == [R, R, S]
    assert book.ticks == {"C": 1, "T": 3}


def test_if_then_without_else_fails_on_false_condition():
    tree, book = build('<IfThenElse><Leaf name="C"/><Leaf name="T"/></IfThenElse>')
    book.set(C="F")
    assert tree.tick_once() is F
    assert tree.nodes[1].status is F  # BT.CPP returns at once, without resetting the condition


def test_if_then_else_wrong_child_count_fails_at_tick_time():
    tree, _ = build('<IfThenElse><Leaf name="C"/></IfThenElse>')
    with pytest.raises(LogicError, match="2 or 3 children"):
        tree.tick_once()


def test_if_then_else_skipped_condition_is_an_error():
    tree, book = build('<IfThenElse><Leaf name="C"/><Leaf name="T"/></IfThenElse>')
    book.set(C="K")
    with pytest.raises(LogicError, match="unexpected"):
        tree.tick_once()


def test_while_do_else_rechecks_condition_and_halts_the_other_branch():
    tree, book = build('<WhileDoElse><Leaf name="C"/><Leaf name="D"/><Leaf name="E"/></WhileDoElse>')
    book.set(C="SSF", D="R", E="S")
    assert tree.tick_once() is R
    assert tree.tick_once() is R
    assert tree.tick_once() is S
    assert book.ticks == {"C": 3, "D": 2, "E": 1}
    assert book.halts == {"D": 1}


def test_while_do_without_else_halts_running_do_branch_on_failure():
    tree, book = build('<WhileDoElse><Leaf name="C"/><Leaf name="D"/></WhileDoElse>')
    book.set(C="SF", D="R")
    assert tree.tick_once() is R
    assert tree.tick_once() is F
    assert book.halts == {"D": 1}


SWITCH = ('<Switch3 variable="{v}" case_1="1" case_2="blue" case_3="{other}">'
          '<Leaf name="One"/><Leaf name="Blue"/><Leaf name="Other"/><Leaf name="Default"/></Switch3>')


@pytest.mark.parametrize("value, expected", [
    (1, "One"), ("1", "One"), (1.0, "One"), ("blue", "Blue"), ("BLUE", "Default"), ("42abc", "Default"),
    ("x", "Other"), (None, "Default"),
])
def test_switch_matching(value, expected):
    tree, book = build(SWITCH)
    tree.root_blackboard.set("other", "x")
    if value is not None:
        tree.root_blackboard.set("v", value)
    assert tree.tick_once() is S
    assert list(book.ticks) == [expected]


def test_switch_uses_scripting_enums_and_float_tolerance():
    factory, book = make_factory()
    factory.register_scripting_enum("GREEN", 2)
    tree = factory.create_tree_from_text(tree_xml(
        '<Switch2 variable="{v}" case_1="GREEN" case_2="0.5"><Leaf name="Green"/><Leaf name="Half"/>'
        '<Leaf name="Default"/></Switch2>'))
    tree.root_blackboard.set("v", 2)
    tree.tick_once()
    tree.root_blackboard.set("v", 0.5000000001)
    tree.tick_once()
    assert list(book.ticks) == ["Green", "Half"]


def test_switch_halts_running_child_when_match_changes():
    tree, book = build('<Switch2 variable="{v}" case_1="a" case_2="b"><Leaf name="A"/><Leaf name="B"/>'
                       '<Leaf name="D"/></Switch2>')
    book.set(A="R", B="R")
    tree.root_blackboard.set("v", "a")
    assert tree.tick_once() is R
    tree.root_blackboard.set("v", "b")
    assert tree.tick_once() is R
    assert book.halts == {"A": 1}


def test_switch_skipped_child_returns_skipped():
    tree, book = build('<Switch2 variable="a" case_1="a" case_2="b"><Leaf name="A"/><Leaf name="B"/>'
                       '<Leaf name="D"/></Switch2>')
    book.set(A="K")
    assert tree.tick_once() is K


def test_switch_wrong_child_count_fails_at_tick_time():
    tree, _ = build('<Switch2 variable="a" case_1="a" case_2="b"><Leaf name="A"/><Leaf name="D"/></Switch2>')
    with pytest.raises(LogicError, match="wrong number of children"):
        tree.tick_once()


def test_try_catch_runs_catch_block_after_a_failure():
    tree, book = build('<TryCatch><Leaf name="A"/><Leaf name="B"/><Leaf name="Cleanup"/></TryCatch>')
    book.set(B="F", Cleanup="RS")
    assert tree.tick_once() is R  # B failed: the catch child starts in the same tick
    assert tree.tick_once() is F
    assert book.ticks == {"A": 1, "B": 1, "Cleanup": 2}
    book.set(B="S")
    assert tree.tick_once() is S
    assert book.ticks["Cleanup"] == 2


def test_try_catch_on_halt_and_child_count():
    tree, book = build('<TryCatch catch_on_halt="true"><Leaf name="A"/><Leaf name="Cleanup"/></TryCatch>')
    book.set(A="R")
    assert tree.tick_once() is R
    tree.halt_tree()
    assert book.halts["A"] == 1 and book.ticks["Cleanup"] == 1
    factory, _ = make_factory()
    with pytest.raises(Exception, match="at least 2 children"):
        factory.create_tree_from_text(tree_xml('<TryCatch><Leaf name="A"/></TryCatch>'))
