"""Every XML error names the file, the line and the node, with BT.CPP's rules."""
import pytest
from bt_helpers import make_factory

from robot_tasks.bt import BehaviorTreeError, XmlError


def error_of(xml: str) -> XmlError:
    factory, _ = make_factory()
    with pytest.raises(XmlError) as error:
        factory.create_tree_from_text(xml)
    assert isinstance(error.value, BehaviorTreeError)
    return error.value


def doc(*lines: str, main: str = ' main_tree_to_execute="Main"') -> str:
    return "\n".join([f'<root BTCPP_format="4"{main}>', *lines, "</root>"])


def test_message_format_is_file_line_node_reason():
    error = error_of(doc('<BehaviorTree ID="Main">', '  <Sequnce/>', '</BehaviorTree>'))
    assert str(error) == "<text>:3: [Sequnce] unknown node type [Sequnce] (did you mean 'Sequence'?)"
    assert (error.file, error.line, error.node) == ("<text>", 3, "Sequnce")


def test_file_name_is_reported(tmp_path):
    path = tmp_path / "bad.xml"
    path.write_text(doc('<BehaviorTree ID="Main">', '<Inverter/>', '</BehaviorTree>'))
    factory, _ = make_factory()
    with pytest.raises(XmlError) as error:
        factory.create_tree_from_file(path)
    assert str(error.value).startswith(f"{path}:3: [Inverter] the Decorator node <Inverter> must have exactly 1 child")


def test_missing_file():
    factory, _ = make_factory()
    with pytest.raises(XmlError, match="can't read the file"):
        factory.create_tree_from_file("/nonexistent/tree.xml")


@pytest.mark.parametrize("xml, line, node, reason", [
    ('<root BTCPP_format="4">\n<BehaviorTree ID="Main">\n<Sequence>\n</BehaviorTree></root>', 4, None,
     "mismatched tag"),
    ('<tree BTCPP_format="4"/>', 1, "tree", "the XML must have a root node called <root>"),
    ('<root BTCPP_format="3"><BehaviorTree ID="M"><AlwaysSuccess/></BehaviorTree></root>', 1, "root",
     "only version 4"),
    (doc('<BehaviorTree ID="Main">', '<AlwaysSuccess/><AlwaysSuccess/>', '</BehaviorTree>'), 2, "Main (BehaviorTree)",
     "must have exactly 1 child, it has 2"),
    (doc('<BehaviorTree ID="Main">', '<Sequence name="empty"/>', '</BehaviorTree>'), 3, "empty (Sequence)",
     "must have at least 1 child"),
    (doc('<BehaviorTree ID="Main"><Sequence>', '<AlwaysSuccess><AlwaysSuccess/></AlwaysSuccess>',
         '</Sequence></BehaviorTree>'), 3, "AlwaysSuccess", "must not have any child"),
    (doc('<BehaviorTree ID="Main">', '<Action name="x"/>', '</BehaviorTree>'), 3, "x (Action)",
     "must have the attribute [ID]"),
    (doc('<BehaviorTree ID="Main">', '<Sequence ID="Leaf"><AlwaysSuccess/></Sequence>', '</BehaviorTree>'), 3,
     "Sequence", "attribute [ID] is not allowed in <Sequence>"),
    (doc('<BehaviorTree ID="Main">', '<Sub/>', '</BehaviorTree>', '<BehaviorTree ID="Sub"><AlwaysSuccess/>'
         '</BehaviorTree>'), 3, "Sub", 'use <SubTree ID="Sub"/>'),
    (doc('<BehaviorTree ID="Main"><AlwaysSuccess/></BehaviorTree>', '<BehaviorTree ID="Main">',
         '<AlwaysFailure/></BehaviorTree>'), 3, "Main (BehaviorTree)", "defined twice"),
    (doc('<BehaviorTree ID="Sequence"><AlwaysSuccess/></BehaviorTree>'), 2, "Sequence (BehaviorTree)",
     "already the name of a registered node type"),
    (doc('<BehaviorTree ID="A"><AlwaysSuccess/></BehaviorTree>', '<BehaviorTree ID="B"><AlwaysSuccess/>'
         '</BehaviorTree>', main=""), 1, "root", "[main_tree_to_execute] was not specified correctly"),
    (doc('<BehaviorTree ID="Main">', '<Script code="x := := 1"/>', '</BehaviorTree>'), 3, "Script",
     "script error"),
    (doc('<BehaviorTree ID="Main">', '<Repeat num_cycles="many"><AlwaysSuccess/></Repeat>', '</BehaviorTree>'),
     3, "Repeat", 'value "many" can not be converted to int'),
    (doc('<TreeNodesModel/>', '<TreeNodesModel/>', '<BehaviorTree ID="Main"><AlwaysSuccess/></BehaviorTree>'), 3,
     "TreeNodesModel", "only a single <TreeNodesModel>"),
    (doc('<Behaviortree ID="Main"><AlwaysSuccess/></Behaviortree>'), 1, "root",
     "has no <BehaviorTree> to create a tree from; these elements were ignored: <Behaviortree> (line 2)"),
])
def test_structural_errors(xml, line, node, reason):
    error = error_of(xml)
    assert error.line == line
    assert error.node == node
    assert reason in error.reason


def test_depth_limit():
    body = "<Inverter>" * 300 + "<AlwaysSuccess/>" + "</Inverter>" * 300
    error = error_of(doc(f'<BehaviorTree ID="Main">{body}</BehaviorTree>'))
    assert "deeper than 256" in error.reason


def test_entity_bomb_is_rejected():
    bomb = ('<?xml version="1.0"?>\n<!DOCTYPE lolz [\n <!ENTITY lol "lol">\n'
            ' <!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">\n]>\n'
            '<root BTCPP_format="4"><BehaviorTree ID="M"><Script code="&lol2;"/></BehaviorTree></root>')
    error = error_of(bomb)
    assert "DOCTYPE" in error.reason or "entity" in error.reason


def test_external_entity_is_rejected():
    xml = ('<?xml version="1.0"?>\n<!DOCTYPE r [<!ENTITY x SYSTEM "file:///etc/passwd">]>\n'
           '<root BTCPP_format="4"><BehaviorTree ID="M"><Script code="&x;"/></BehaviorTree></root>')
    error = error_of(xml)
    assert error.line == 2
    assert "not allowed" in error.reason


def test_unknown_ids_are_rejected_before_any_node_is_built():
    error = error_of(doc('<BehaviorTree ID="Main">', '<Sequence>', '<AlwaysSucess/>', '</Sequence>',
                         '</BehaviorTree>'))
    assert "did you mean 'AlwaysSuccess'" in str(error)
