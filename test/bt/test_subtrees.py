"""SubTree blackboards, remapping, _autoremap, TreeNodesModel defaults, <include>."""
import pytest
from bt_helpers import S, build, make_factory

from robot_tasks.bt import XmlError

SUB = '<BehaviorTree ID="Sub"><Script code="{}"/></BehaviorTree>'


def sub(code: str) -> str:
    return SUB.format(code)


def test_subtree_is_isolated_without_remapping():
    tree, _ = build('<Sequence><Script code="x := 1"/><SubTree ID="Sub"/></Sequence>', sub("y := 2"))
    assert tree.tick_once() is S
    assert tree.root_blackboard.as_dict() == {"x": 1}
    assert tree.subtrees[1].blackboard.as_dict() == {"y": 2}


def test_explicit_remapping_reads_and_writes_parent():
    tree, _ = build('<Sequence><Script code="x := 1"/><SubTree ID="Sub" inner="{x}" out="{result}"/></Sequence>',
                    sub("out := inner + 10"))
    assert tree.tick_once() is S
    assert tree.root_blackboard.get("result") == 11


def test_equal_shorthand_and_literals_are_typed():
    tree, _ = build('<Sequence><Script code="v := 2"/>'
                    '<SubTree ID="Sub" v="{=}" i="42" f="0.5" s="hello"/></Sequence>',
                    sub("v := v * 2"))
    assert tree.tick_once() is S
    assert tree.root_blackboard.get("v") == 4
    child = tree.subtrees[1].blackboard
    assert child.get("i") == 42 and isinstance(child.get("i"), int)
    assert child.get("f") == 0.5 and child.get("s") == "hello"


def test_autoremap_shares_everything_but_private_keys():
    tree, _ = build('<Sequence><Script code="x := 1"/><SubTree ID="Sub" _autoremap="true"/></Sequence>',
                    sub("y := x + 1; _tmp := 5"))
    assert tree.tick_once() is S
    assert tree.root_blackboard.as_dict() == {"x": 1, "y": 2}
    assert tree.subtrees[1].blackboard.get("_tmp") == 5


def test_subtree_paths_and_uids():
    tree, _ = build('<Sequence><SubTree ID="Sub"/><SubTree ID="Sub" name="second"/></Sequence>', sub("a := 1"))
    assert [subtree.instance_name for subtree in tree.subtrees] == ["", "Sub::2", "second"]
    assert [node.uid for node in tree.nodes] == [1, 2, 3, 4, 5]
    assert tree.nodes[2].full_path == "Sub::2/Script::3"  # an unnamed node gets ::UID, as in BT.CPP


def test_nested_subtrees_and_root_key():
    tree, _ = build('<SubTree ID="A"/>',
                    '<BehaviorTree ID="A"><SubTree ID="B"/></BehaviorTree>',
                    '<BehaviorTree ID="B"><Script code="@deep := 3"/></BehaviorTree>')
    assert tree.tick_once() is S
    assert tree.root_blackboard.get("deep") == 3
    assert tree.subtrees[2].instance_name == "A::1/B::2"


def test_model_defaults_fill_missing_remaps_and_mandatory_ports_are_checked():
    model = ('<TreeNodesModel><SubTree ID="Sub"><input_port name="inner" default="{x}"/>'
             '<input_port name="k" default="7"/></SubTree></TreeNodesModel>')
    tree, _ = build('<Sequence><Script code="x := 1"/><SubTree ID="Sub"/></Sequence>', sub("out := inner + k"),
                    model)
    assert tree.tick_once() is S
    assert tree.subtrees[1].blackboard.get("out") == 8
    model = '<TreeNodesModel><SubTree ID="Sub"><input_port name="needed"/></SubTree></TreeNodesModel>'
    with pytest.raises(XmlError, match=r"mandatory port called \[needed\]"):
        build('<SubTree ID="Sub"/>', sub("a := 1"), model)


def test_recursive_subtrees_are_rejected():
    with pytest.raises(XmlError) as error:
        build('<SubTree ID="A"/>', '<BehaviorTree ID="A">\n<SubTree ID="B"/></BehaviorTree>',
              '<BehaviorTree ID="B">\n\n<SubTree ID="A"/></BehaviorTree>')
    assert "recursive SubTree: Main -> A -> B -> A" in str(error.value)
    assert error.value.line == 4


def test_unknown_subtree_id():
    with pytest.raises(XmlError, match=r"can't find a BehaviorTree with ID \[Nope\]"):
        build('<SubTree ID="Nope"/>')


def test_include_is_relative_to_the_including_file(tmp_path):
    (tmp_path / "subs").mkdir()
    (tmp_path / "subs" / "sub.xml").write_text(
        '<root BTCPP_format="4"><include path="more.xml"/>'
        '<BehaviorTree ID="Sub"><SubTree ID="More"/></BehaviorTree></root>')
    (tmp_path / "subs" / "more.xml").write_text(
        '<root BTCPP_format="4"><BehaviorTree ID="More"><Script code="@m := 1"/></BehaviorTree></root>')
    main = tmp_path / "main.xml"
    main.write_text('<root BTCPP_format="4" main_tree_to_execute="Main"><include path="subs/sub.xml"/>'
                    '<BehaviorTree ID="Main"><SubTree ID="Sub"/></BehaviorTree></root>')
    factory, _ = make_factory()
    tree = factory.create_tree_from_file(main)
    assert tree.tick_once() is S
    assert tree.root_blackboard.get("m") == 1


def test_missing_include_names_file_and_line(tmp_path):
    main = tmp_path / "main.xml"
    main.write_text('<root BTCPP_format="4">\n<include path="gone.xml"/>\n'
                    '<BehaviorTree ID="Main"><AlwaysSuccess/></BehaviorTree></root>')
    factory, _ = make_factory()
    with pytest.raises(XmlError) as error:
        factory.create_tree_from_file(main)
    assert error.value.file == str(main) and error.value.line == 2
    assert "gone.xml" in str(error.value)


def test_registered_trees_can_be_created_by_id():
    factory, book = make_factory()
    factory.register_behavior_tree_from_text(
        '<root BTCPP_format="4"><BehaviorTree ID="One"><Leaf name="A"/></BehaviorTree>'
        '<BehaviorTree ID="Two"><SubTree ID="One"/></BehaviorTree></root>')
    assert sorted(factory.registered_behavior_trees()) == ["One", "Two"]
    assert factory.create_tree("Two").tick_once() is S
    assert book.ticks["A"] == 1
