"""Ports: literals, defaults, {key}, {=}, @key, conversion at creation and at read time."""
import pytest
from bt_helpers import tree_xml

from robot_tasks.bt import (
    BehaviorTreeFactory,
    BidirectionalPort,
    InputPort,
    NodeStatus,
    OutputPort,
    PortError,
    SyncActionNode,
    XmlError,
)

SEEN = []


class Reader(SyncActionNode):
    @staticmethod
    def provided_ports():
        return [InputPort("number", int, default=7), InputPort("text"), InputPort("ratio", float),
                InputPort("flag", bool, default=False)]

    def tick(self):
        SEEN.append((self.get_input("number"), self.get_input("text", None), self.get_input("ratio", None),
                     self.get_input("flag")))
        return NodeStatus.SUCCESS


class Writer(SyncActionNode):
    @classmethod
    def provided_ports(cls):
        return [OutputPort("out", int), BidirectionalPort("io")]

    def tick(self):
        self.set_output("out", 41)
        self.set_output("io", "both")
        return NodeStatus.SUCCESS


@pytest.fixture
def factory():
    SEEN.clear()
    factory = BehaviorTreeFactory()
    factory.register_node_type(Reader)
    factory.register_node_type(Writer)
    return factory


def test_literals_defaults_and_conversion(factory):
    tree = factory.create_tree_from_text(tree_xml('<Reader text="hi" ratio="0.5" flag="true"/>'))
    tree.tick_once()
    assert SEEN == [(7, "hi", 0.5, True)]


def test_blackboard_pointers_and_equal_shorthand(factory):
    tree = factory.create_tree_from_text(tree_xml(
        '<Sequence><Writer out="{ number }" io="{=}"/><Reader number="{number}" text="{io}"/></Sequence>'))
    tree.tick_once()
    assert SEEN == [(41, "both", None, False)]
    assert tree.root_blackboard.get("io") == "both"


def test_typed_entry_created_at_creation(factory):
    tree = factory.create_tree_from_text(tree_xml('<Reader number="{n}"/>'))
    entry = tree.root_blackboard.get_entry("n")
    assert entry is not None and entry.type is int and entry.is_empty
    tree.root_blackboard.set("n", "12")
    tree.tick_once()
    assert SEEN[0][0] == 12


def test_reading_an_empty_entry_raises_port_error(factory):
    tree = factory.create_tree_from_text(tree_xml('<Reader number="{n}"/>'))
    with pytest.raises(PortError, match=r"\[n\].*empty"):
        tree.tick_once()


def test_literal_not_convertible_is_a_creation_error(factory):
    with pytest.raises(XmlError) as error:
        factory.create_tree_from_text(tree_xml('<Reader number="seven"/>'))
    assert 'value "seven" can not be converted to int' in str(error.value)
    assert error.value.node == "Reader"


def test_unknown_port_is_a_creation_error_with_suggestion(factory):
    with pytest.raises(XmlError) as error:
        factory.create_tree_from_text(tree_xml('<Reader numbr="1"/>'))
    assert "[numbr]" in str(error.value) and "did you mean 'number'" in str(error.value)


def test_output_to_literal_is_an_error(factory):
    tree = factory.create_tree_from_text(tree_xml('<Writer out="3" io="{x}"/>'))
    with pytest.raises(PortError, match="must point to a blackboard entry"):
        tree.tick_once()


def test_type_mismatch_between_ports_is_a_creation_error():
    factory = BehaviorTreeFactory()

    class ListWriter(SyncActionNode):
        @staticmethod
        def provided_ports():
            return [OutputPort("out", list)]

        def tick(self):
            return NodeStatus.SUCCESS

    factory.register_node_type(Reader)
    factory.register_node_type(ListWriter)
    with pytest.raises(XmlError, match=r"created with type \[int\] by port \[number\]"):
        factory.create_tree_from_text(tree_xml('<Sequence><Reader number="{k}"/><ListWriter out="{k}"/></Sequence>'))


def test_root_blackboard_key_from_a_subtree(factory):
    tree = factory.create_tree_from_text(tree_xml(
        '<SubTree ID="Sub"/>', '<BehaviorTree ID="Sub"><Writer out="{@answer}" io="{io}"/></BehaviorTree>'))
    tree.tick_once()
    assert tree.root_blackboard.get("answer") == 41
    assert not tree.root_blackboard.has_entry("io")
