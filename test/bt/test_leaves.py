"""Built-in leaves: AlwaysSuccess/Failure, Script, ScriptCondition, SetBlackboard,
UnsetBlackboard, Sleep."""
import pytest
from bt_helpers import F, I, R, S, build, make_factory, tree_xml

from robot_tasks.bt import Blackboard, LogicError, ScriptError


def test_always_success_and_failure():
    tree, _ = build('<Fallback><AlwaysFailure/><AlwaysSuccess/></Fallback>')
    assert tree.tick_once() is S


def test_script_and_script_condition():
    tree, _ = build('<Sequence><Script code="a := 3; b := a * 2"/><ScriptCondition code="b == 6"/>'
                    '<ScriptCondition code="a &gt; 5"/></Sequence>')
    assert tree.tick_once() is F
    assert tree.root_blackboard.get("b") == 6


def test_script_from_blackboard_is_compiled_when_it_changes():
    # BT.CPP 4.10 loads the script when the node is created: the entry must hold one then
    board = Blackboard()
    board.set("program", "x := 1")
    factory, _ = make_factory()
    tree = factory.create_tree_from_text(tree_xml('<Script code="{program}"/>'), board)
    tree.tick_once()
    tree.root_blackboard.set("program", "x := x + 41")
    tree.tick_once()
    assert tree.root_blackboard.get("x") == 42


def test_script_runtime_error_propagates():
    tree, _ = build('<Script code="y = 1"/>')
    with pytest.raises(ScriptError):
        tree.tick_once()


def test_set_blackboard_literal_copy_and_typed_destination():
    tree, _ = build('<Sequence><SetBlackboard output_key="a" value="hello"/>'
                    '<SetBlackboard output_key="b" value="{a}"/>'
                    '<Repeat num_cycles="{n}"><AlwaysSuccess/></Repeat></Sequence>')
    tree.root_blackboard.set("n", 1)
    assert tree.tick_once() is S
    assert tree.root_blackboard.get("b") == "hello"
    tree, _ = build('<Sequence><SetBlackboard output_key="n" value="3"/>'
                    '<Repeat num_cycles="{n}"><AlwaysSuccess/></Repeat></Sequence>')
    assert tree.tick_once() is S
    assert tree.root_blackboard.get("n") == 3  # converted to the int entry created by the Repeat port


def test_set_blackboard_from_empty_entry_fails():
    tree, _ = build('<Sequence><Repeat num_cycles="{n}"><AlwaysSuccess/></Repeat></Sequence>'
                    .replace("<Sequence>", '<Sequence><SetBlackboard output_key="m" value="{n}"/>'))
    assert tree.tick_once() is F


def test_set_blackboard_bad_conversion():
    tree, _ = build('<Sequence><SetBlackboard output_key="n" value="many"/>'
                    '<Repeat num_cycles="{n}"><AlwaysSuccess/></Repeat></Sequence>')
    with pytest.raises(LogicError, match=r"Can't convert string \[many\]"):
        tree.tick_once()


def test_unset_blackboard():
    tree, _ = build('<Sequence><Script code="k := 1"/><UnsetBlackboard key="k"/></Sequence>')
    assert tree.tick_once() is S
    assert not tree.root_blackboard.has_entry("k")


def test_sleep_runs_then_succeeds_and_can_be_halted():
    tree, _ = build('<Sleep msec="10"/>')
    assert tree.tick_once() is R
    assert tree.tick_while_running(sleep_s=1.0) is S  # the timer's wake-up ends the wait
    tree, _ = build('<Sleep msec="0"/>')
    assert tree.tick_once() is S
    tree, _ = build('<Sleep msec="60000"/>')
    assert tree.tick_once() is R
    tree.halt_tree()
    assert tree.nodes[0].status is I


@pytest.mark.parametrize("body, message", [
    ('<Script code="{program}"/>', r"Missing port \[code\] in Script"),
    ('<Script/>', r"Missing port \[code\] in Script"),
    ('<ScriptCondition code="{c}"/>', r"Missing port \[code\] in ScriptCondition"),
    ('<Precondition if="{p}"><AlwaysSuccess/></Precondition>', r"Missing parameter \[if\] in Precondition"),
])
def test_scripts_load_when_created_like_btcpp_410(body, message):
    """BT.CPP 4.10's Script, ScriptCondition and Precondition call loadExecutor() in their
    constructors, so an empty `{key}` (or no script at all) is a creation error; the
    messages are 4.10's (recorded with BT.CPP 4.10.0 built from source)."""
    from robot_tasks.bt import XmlError

    with pytest.raises(XmlError, match=message):
        build(body)
