"""What the XML loader accepts: compact and explicit forms, main tree choice, names."""
import warnings

import pytest
from bt_helpers import S, make_factory

from robot_tasks.bt import XmlError


def test_explicit_and_compact_forms_build_the_same_tree():
    factory, book = make_factory()
    explicit = factory.create_tree_from_text(
        '<root BTCPP_format="4"><BehaviorTree ID="M"><Control ID="Sequence" name="s">'
        '<Action ID="Leaf" name="A"/><Decorator ID="Inverter"><Action ID="AlwaysFailure"/></Decorator>'
        '</Control></BehaviorTree></root>')
    compact = factory.create_tree_from_text(
        '<root BTCPP_format="4"><BehaviorTree ID="M"><Sequence name="s"><Leaf name="A"/>'
        '<Inverter><AlwaysFailure/></Inverter></Sequence></BehaviorTree></root>')
    assert [(n.registration_id, n.name) for n in explicit.nodes] == \
           [(n.registration_id, n.name) for n in compact.nodes]
    assert explicit.tick_once() is S and compact.tick_once() is S


def test_single_anonymous_tree_and_missing_format_warning():
    factory, _ = make_factory()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        tree = factory.create_tree_from_text('<root><BehaviorTree><AlwaysSuccess/></BehaviorTree></root>')
    assert any("BTCPP_format" in str(w.message) for w in caught)
    assert tree.tick_once() is S
    assert tree.subtrees[0].tree_id == "BehaviorTree_0"


def test_main_tree_attribute_selects_the_root():
    factory, book = make_factory()
    tree = factory.create_tree_from_text(
        '<root BTCPP_format="4" main_tree_to_execute="B"><BehaviorTree ID="A"><Leaf name="a"/></BehaviorTree>'
        '<BehaviorTree ID="B"><Leaf name="b"/></BehaviorTree></root>')
    tree.tick_once()
    assert list(book.ticks) == ["b"]


def test_names_default_to_the_id_and_paths_follow_subtrees():
    factory, _ = make_factory()
    tree = factory.create_tree_from_text(
        '<root BTCPP_format="4" main_tree_to_execute="M"><BehaviorTree ID="M"><Sequence>'
        '<SubTree ID="S" name="grasp"/></Sequence></BehaviorTree>'
        '<BehaviorTree ID="S"><Leaf name="close gripper"/></BehaviorTree></root>')
    assert [n.name for n in tree.nodes] == ["Sequence", "grasp", "close gripper"]
    assert tree.nodes[2].full_path == "grasp/close gripper"
    assert tree.find_nodes("close gripper") == [tree.nodes[2]]
    assert tree.get_node_by_uid(2) is tree.nodes[1]


def test_duplicate_subtree_paths_are_rejected():
    factory, _ = make_factory()
    with pytest.raises(XmlError, match=r"Duplicate SubTree path detected: 'x'"):
        factory.create_tree_from_text(
            '<root BTCPP_format="4" main_tree_to_execute="M"><BehaviorTree ID="M"><Sequence>'
            '<SubTree ID="S" name="x"/><SubTree ID="S" name="x"/></Sequence></BehaviorTree>'
            '<BehaviorTree ID="S"><AlwaysSuccess/></BehaviorTree></root>')


def test_groot_metadata_attributes_are_ignored():
    factory, _ = make_factory()
    tree = factory.create_tree_from_text(
        '<root BTCPP_format="4"><BehaviorTree ID="M" _fullpath=""><Sequence name="s" _uid="1">'
        '<AlwaysSuccess _uid="2"/></Sequence></BehaviorTree></root>')
    assert tree.tick_once() is S


def test_register_behavior_tree_from_file(tmp_path):
    path = tmp_path / "trees.xml"
    path.write_text('<root BTCPP_format="4"><BehaviorTree ID="T"><Leaf name="A"/></BehaviorTree></root>')
    factory, book = make_factory()
    factory.register_behavior_tree_from_file(path)
    assert factory.create_tree("T").tick_once() is S
    assert book.ticks["A"] == 1
