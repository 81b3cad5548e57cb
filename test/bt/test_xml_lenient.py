"""XML that BT.CPP's tinyxml2 accepts and strict XML does not, plus BT.CPP 4.10's name
rules and the messages for common mistakes. DTDs and entities stay refused."""
import behaviortreepy
import pytest
from bt_helpers import make_factory

from robot_tasks.bt import BehaviorTreeFactory, NodeStatus, XmlError

S, F = NodeStatus.SUCCESS, NodeStatus.FAILURE


def doc(body, *extra, before=""):
    return (f'{before}<root BTCPP_format="4" main_tree_to_execute="Main">\n'
            f'<BehaviorTree ID="Main">\n{body}\n</BehaviorTree>{"".join(extra)}\n</root>')


def error_of(xml):
    factory, _ = make_factory()
    with pytest.raises(XmlError) as error:
        factory.create_tree_from_text(xml)
    return error.value


RAW_SCRIPTS = doc('<Sequence>'
                  '<Script code="A := 3; B := 1; color := 2; ok := 0"/>'
                  '<Precondition if="A>-B && color != 5" else="FAILURE"><Script code="ok := 1"/></Precondition>'
                  '<Script code="big := A > 2 && B < 2" _skipIf="A < 3"/>'
                  '<ScriptCondition code="ok == 1 && big == 1"/>'
                  '</Sequence>')


def test_raw_ampersands_and_less_than_in_attributes_work_like_in_btcpp():
    tree = BehaviorTreeFactory().create_tree_from_text(RAW_SCRIPTS)
    assert tree.tick_once() is S
    assert tree.root_blackboard.get("ok") == 1 and tree.root_blackboard.get("big") == 1
    oracle = behaviortreepy.BehaviorTreeFactory().create_tree_from_text(RAW_SCRIPTS)
    assert oracle.tick_once().name == "SUCCESS"
    assert oracle.root_blackboard().get_int("ok") == 1


def test_skip_if_with_raw_less_than_skips():
    tree = BehaviorTreeFactory().create_tree_from_text(
        doc('<Sequence><Script code="x := 1"/><Script code="y := 1" _skipIf="x < 3"/></Sequence>'))
    assert tree.tick_once() is S and "y" not in tree.root_blackboard


def test_escaped_forms_and_unknown_references_keep_their_meaning():
    tree = BehaviorTreeFactory().create_tree_from_text(doc(
        '<Sequence><Script code="a := 1 &amp;&amp; 1; b := 2 &lt; 3; c := &#39;x&#39;"/>'
        '<Script code="d := \'&amp;lol;\'; e := \'&lol;\'"/></Sequence>'))
    assert tree.tick_once() is S
    board = tree.root_blackboard
    assert (board.get("a"), board.get("b"), board.get("c")) == (1.0, 1.0, "x")
    assert board.get("d") == board.get("e") == "&lol;"  # tinyxml2 keeps an unknown reference as text


def test_whitespace_before_the_declaration_keeps_line_numbers():
    xml = doc('<Sequence>\n<AlwaysSucess/>\n</Sequence>', before='\n\n  <?xml version="1.0" encoding="UTF-8"?>\n')
    error = error_of(xml)
    assert error.line == 7 and "did you mean 'AlwaysSuccess'" in error.reason
    good = doc('<AlwaysSuccess/>', before='\n  \t<?xml version="1.0"?>\n')
    assert BehaviorTreeFactory().create_tree_from_text(good).tick_once() is S
    assert behaviortreepy.BehaviorTreeFactory().create_tree_from_text(good).tick_once().name == "SUCCESS"


def test_dtd_and_entities_are_still_refused():
    bomb = ('<?xml version="1.0"?>\n<!DOCTYPE lolz [\n <!ENTITY lol "lol">\n]>\n'
            '<root BTCPP_format="4"><BehaviorTree ID="M"><Script code="a && &lol;"/></BehaviorTree></root>')
    error = error_of(bomb)
    assert "not allowed" in error.reason and error.line == 2


def test_malformed_xml_gives_line_column_and_cause():
    error = error_of('<root BTCPP_format="4">\n<BehaviorTree ID="Main">\n<Sequence>\n</BehaviorTree></root>')
    assert (error.line, error.column) == (4, 3)
    assert str(error).startswith("<text>:4: malformed XML at column 3: mismatched tag")
    # the column is the one in the file, even after raw '<' and '&&' were escaped on that line
    error = error_of('<root BTCPP_format="4"><BehaviorTree ID="Main">\n'
                     '<Script code="a < 1 && b"/> <Oops a=1/>\n</BehaviorTree></root>')
    assert (error.line, error.column) == (2, 37)
    assert "not well-formed" in error.reason


def test_double_quoted_script_string_suggests_single_quotes():
    error = error_of(doc('  <Script code="msg := "hello""/>'))
    assert (error.line, error.column) == (3, 24)
    assert "[code]" in error.reason and "single quotes (msg := 'hello')" in error.reason


def test_subtree_plus_says_it_is_gone():
    error = error_of(doc('<SubTreePlus ID="Sub"/>', '<BehaviorTree ID="Sub"><AlwaysSuccess/></BehaviorTree>'))
    assert error.line == 3 and "gone since BT.CPP v4: use <SubTree>" in error.reason


def test_root_without_behavior_tree_says_so():
    error = error_of('<root BTCPP_format="4"><TreeNodesModel/></root>')
    assert "has no <BehaviorTree>" in error.reason and error.line == 1


def test_unknown_elements_under_root_are_ignored():
    xml = doc('<AlwaysSuccess/>', '<Metadata><Item key="author" value="me"/></Metadata><Groot2Extras/>')
    assert BehaviorTreeFactory().create_tree_from_text(xml).tick_once() is S
    assert behaviortreepy.BehaviorTreeFactory().create_tree_from_text(xml).tick_once().name == "SUCCESS"


@pytest.mark.parametrize("tree_id", ["Root", "root", "a.b", "a/b", "a:b", "a*", "a?", "a|b", "a\\b", "two words"])
def test_invalid_tree_ids_are_refused(tree_id):
    xml = (f'<root BTCPP_format="4" main_tree_to_execute="Main"><BehaviorTree ID="Main"><AlwaysSuccess/>'
           f'</BehaviorTree><BehaviorTree ID="{tree_id}"><AlwaysSuccess/></BehaviorTree></root>')
    error = error_of(xml)
    assert "is not a valid name" in error.reason and tree_id in error.reason


def test_unicode_and_dashed_tree_ids_are_fine():
    xml = doc('<SubTree ID="Tür-öffnen_2"/>', '<BehaviorTree ID="Tür-öffnen_2"><AlwaysSuccess/></BehaviorTree>')
    assert BehaviorTreeFactory().create_tree_from_text(xml).tick_once() is S


@pytest.mark.parametrize("port", ["two words", "1st", "name", "_skipIf", "a.b", "x/y", ""])
def test_badly_named_model_ports_are_refused(port):
    xml = doc('<AlwaysSuccess/>', f'<TreeNodesModel><Action ID="Move"><input_port name="{port}"/></Action>'
                                  f'</TreeNodesModel>')
    error = error_of(xml)
    assert "port name" in error.reason or "needs the attribute [name]" in error.reason
