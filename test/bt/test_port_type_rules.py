"""BT.CPP 4.10's `tests/gtest_port_type_rules.cpp`, transcribed (one test per TEST, same name).

The nodes are the Python equivalents of the file's NodeWithIntPorts, NodeWithStringPorts,
... (an input `input` and an output `output` of one type; the int node doubles its
input). BT.CPP's `LogicError`/`RuntimeError` at tree creation is our XmlError (naming
file, line and node); at tick time, the BehaviorTreeError that escapes the tick.

No Python equivalent, so not transcribed:
- SafeCast_IntToUint8_InRange / _Overflow / _Negative, SafeCast_DifferentIntTypes_NotAllowed:
  Python has one integer type; `uint8_t` and `int64_t` do not exist to be confused.
- BTAny_WrapperDoesNotBypassTypeCheck: there is no BT::Any wrapper to unwrap.
Transcribed with the Python analog of a typed entry, because `Blackboard.set()` leaves
an entry untyped here (README, "Blackboard typing is Pythonic"); `create_entry(key, T)`
is what types it, as BT.CPP's `set<T>` does:
- BlackboardSetInt_CreatesStronglyTypedEntry, StringEntry_CanBecomeTyped,
  TypeLock_CannotChangeAfterTypedWrite, TypeLock_RuntimeTypeChange_Fails.
"""
import typing

import pytest

from robot_tasks.bt import (
    BehaviorTreeError,
    BehaviorTreeFactory,
    Blackboard,
    InputPort,
    LogicError,
    NodeStatus,
    OutputPort,
    SyncActionNode,
    XmlError,
)
from robot_tasks.bt.port_types import class_key, port_key
from robot_tasks.bt.ports import convert_value


class TestPoint:
    """`x;y`, as the file's convertFromString<TestPoint>."""

    __test__ = False  # not a pytest class

    def __init__(self, x=0.0, y=0.0):
        self.x, self.y = x, y

    @classmethod
    def from_string(cls, text):
        parts = text.split(";")
        if len(parts) != 2:
            raise ValueError("invalid TestPoint format, expected 'x;y'")
        return cls(float(parts[0]), float(parts[1]))


def typed_node(class_name, port_type, transform=lambda value: value):
    class Node(SyncActionNode):
        @staticmethod
        def provided_ports():
            return [InputPort("input", port_type), OutputPort("output", port_type)]

        def tick(self):
            value = self.get_input("input", None)
            if value is None:
                return NodeStatus.FAILURE
            self.set_output("output", transform(value))
            return NodeStatus.SUCCESS
    Node.__name__ = class_name
    return Node


NodeWithIntPorts = typed_node("NodeWithIntPorts", int, lambda value: value * 2)
NodeWithStringPorts = typed_node("NodeWithStringPorts", str)
NodeWithDoublePorts = typed_node("NodeWithDoublePorts", float)
NodeWithTestPointPorts = typed_node("NodeWithTestPointPorts", TestPoint)


class NodeWithGenericPorts(SyncActionNode):
    @staticmethod
    def provided_ports():
        return [InputPort("input"), OutputPort("output")]

    def tick(self):
        return NodeStatus.SUCCESS


class NodeWithAnyPorts(SyncActionNode):
    """BT::Any ports: typing.Any here."""

    @staticmethod
    def provided_ports():
        return [InputPort("input", typing.Any), OutputPort("output", typing.Any)]

    def tick(self):
        self.set_output("output", 42)
        self.set_output("output", "hello")
        self.set_output("output", 3.14)
        return NodeStatus.SUCCESS


def make_vector_node(result):
    class NodeWithVectorPorts(SyncActionNode):
        @staticmethod
        def provided_ports():
            return [InputPort("input", list[float])]

        def tick(self):
            value = self.get_input("input", None)
            if value is None:
                return NodeStatus.FAILURE
            result[:] = value
            return NodeStatus.SUCCESS
    return NodeWithVectorPorts


def factory_with(*classes):
    factory = BehaviorTreeFactory()
    for cls in classes:
        factory.register_node_type(cls)
    return factory


def tree(body):
    return f'<root BTCPP_format="4"><BehaviorTree>{body}</BehaviorTree></root>'


# ---- Section 1: same type ----------------------------------------------------------------
def test_SameType_IntToInt():
    factory = factory_with(NodeWithIntPorts)
    tree_ = factory.create_tree_from_text(tree('<Sequence><NodeWithIntPorts input="21" output="{value}"/>'
                                               '<NodeWithIntPorts input="{value}" output="{result}"/></Sequence>'))
    assert tree_.tick_while_running() is NodeStatus.SUCCESS
    assert tree_.root_blackboard.get("result") == 84


def test_SameType_StringToString():
    factory = factory_with(NodeWithStringPorts)
    tree_ = factory.create_tree_from_text(tree('<Sequence><NodeWithStringPorts input="hello" output="{value}"/>'
                                               '<NodeWithStringPorts input="{value}" output="{result}"/>'
                                               '</Sequence>'))
    assert tree_.tick_while_running() is NodeStatus.SUCCESS
    assert tree_.root_blackboard.get("result") == "hello"


def test_SameType_CustomTypeToCustomType():
    factory = factory_with(NodeWithTestPointPorts)
    tree_ = factory.create_tree_from_text(tree('<Sequence><NodeWithTestPointPorts input="1.5;2.5" output="{point}"/>'
                                               '<NodeWithTestPointPorts input="{point}" output="{result}"/>'
                                               '</Sequence>'))
    assert tree_.tick_while_running() is NodeStatus.SUCCESS
    result = tree_.root_blackboard.get("result")
    assert (result.x, result.y) == (1.5, 2.5)


# ---- Section 2: generic ports --------------------------------------------------------------
def test_GenericPort_AcceptsInt():
    factory_with(NodeWithIntPorts, NodeWithGenericPorts).create_tree_from_text(tree(
        '<Sequence><NodeWithIntPorts input="42" output="{value}"/><NodeWithGenericPorts input="{value}"/>'
        '</Sequence>'))


def test_GenericPort_AcceptsString():
    factory_with(NodeWithStringPorts, NodeWithGenericPorts).create_tree_from_text(tree(
        '<Sequence><NodeWithStringPorts input="hello" output="{value}"/><NodeWithGenericPorts input="{value}"/>'
        '</Sequence>'))


def test_GenericOutput_ToTypedInput():
    factory_with(NodeWithIntPorts, NodeWithGenericPorts).create_tree_from_text(tree(
        '<Sequence><NodeWithGenericPorts output="{value}"/><NodeWithIntPorts input="{value}" output="{result}"/>'
        '</Sequence>'))


# ---- Section 3: string as universal donor ---------------------------------------------------
def test_StringToInt_ViaConvertFromString():
    tree_ = factory_with(NodeWithIntPorts).create_tree_from_text(tree(
        '<Sequence><SetBlackboard value="42" output_key="value"/>'
        '<NodeWithIntPorts input="{value}" output="{result}"/></Sequence>'))
    assert tree_.tick_while_running() is NodeStatus.SUCCESS
    assert tree_.root_blackboard.get("result") == 84


def test_StringToDouble_ViaConvertFromString():
    tree_ = factory_with(NodeWithDoublePorts).create_tree_from_text(tree(
        '<Sequence><SetBlackboard value="3.14" output_key="value"/>'
        '<NodeWithDoublePorts input="{value}" output="{result}"/></Sequence>'))
    assert tree_.tick_while_running() is NodeStatus.SUCCESS
    assert tree_.root_blackboard.get("result") == pytest.approx(3.14)


def test_StringToCustomType_ViaConvertFromString():
    tree_ = factory_with(NodeWithTestPointPorts).create_tree_from_text(tree(
        '<Sequence><SetBlackboard value="1.0;2.0" output_key="point"/>'
        '<NodeWithTestPointPorts input="{point}" output="{result}"/></Sequence>'))
    assert tree_.tick_while_running() is NodeStatus.SUCCESS
    result = tree_.root_blackboard.get("result")
    assert (result.x, result.y) == (1.0, 2.0)


def test_StringToVector_ViaConvertFromString():
    result = []
    tree_ = factory_with(make_vector_node(result)).create_tree_from_text(tree(
        '<NodeWithVectorPorts input="1.0;2.0;3.0"/>'))
    assert tree_.tick_while_running() is NodeStatus.SUCCESS
    assert result == [1.0, 2.0, 3.0]


def test_SubtreeStringInput_ToTypedPort():
    result = []
    factory = factory_with(make_vector_node(result))
    factory.register_behavior_tree_from_text(
        '<root BTCPP_format="4"><BehaviorTree ID="Main"><SubTree ID="Sub" values="3;7"/></BehaviorTree>'
        '<BehaviorTree ID="Sub"><NodeWithVectorPorts input="{values}"/></BehaviorTree></root>')
    assert factory.create_tree("Main").tick_while_running() is NodeStatus.SUCCESS
    assert result == [3.0, 7.0]


# ---- Section 4: a string creates a generic entry ---------------------------------------------
def test_BlackboardSetString_CreatesGenericEntry():
    board = Blackboard()
    board.set("key", "hello")
    assert board.get_entry("key").declared is None  # not strongly typed


def test_BlackboardSetInt_CreatesStronglyTypedEntry():
    """Analog: create_entry(key, int) types an entry (set() does not, see the docstring)."""
    board = Blackboard()
    board.create_entry("key", int)
    board.set("key", 42)
    assert board.get_entry("key").declared == "int"
    board.set("untyped", 42)
    assert board.get_entry("untyped").declared is None  # the Pythonic difference


def test_StringEntry_CanBecomeTyped():
    """Analog: a generic entry takes a type when a typed port (create_entry) meets it."""
    board = Blackboard()
    board.set("key", "42")
    board.create_entry("key", int)
    assert board.get("key") == 42 and board.get_entry("key").type is int


# ---- Section 5: the type locks after the first typed write ----------------------------------
def test_TypeLock_CannotChangeAfterTypedWrite():
    board = Blackboard()
    board.create_entry("key", int)
    board.set("key", 42)
    with pytest.raises(LogicError):
        board.set("key", "hello")
    with pytest.raises(LogicError):
        board.set("key", 3.14)


def test_TypeLock_XMLTreeCreation_TypeMismatch():
    with pytest.raises(XmlError, match=r"created with type \[int\]"):
        factory_with(NodeWithIntPorts, NodeWithStringPorts).create_tree_from_text(tree(
            '<Sequence><NodeWithIntPorts input="42" output="{value}"/>'
            '<NodeWithStringPorts input="{value}" output="{result}"/></Sequence>'))


def test_TypeLock_IntToDouble_Fails():
    with pytest.raises(XmlError, match=r"type \[double\]"):
        factory_with(NodeWithIntPorts, NodeWithDoublePorts).create_tree_from_text(tree(
            '<Sequence><NodeWithIntPorts input="42" output="{value}"/>'
            '<NodeWithDoublePorts input="{value}" output="{result}"/></Sequence>'))


def test_TypeLock_CustomTypeChange_Fails():
    with pytest.raises(XmlError, match=r"created with type \[TestPoint\]"):
        factory_with(NodeWithTestPointPorts, NodeWithIntPorts).create_tree_from_text(tree(
            '<Sequence><NodeWithTestPointPorts input="1;2" output="{value}"/>'
            '<NodeWithIntPorts input="{value}" output="{result}"/></Sequence>'))


def test_TypeLock_RuntimeTypeChange_Fails():
    board = Blackboard()
    board.create_entry("point_value", TestPoint)  # BT.CPP: bb->set("point_value", point)
    board.set("point_value", TestPoint(2, 7))
    board.set("string_value", "Hello!")
    tree_ = factory_with(NodeWithTestPointPorts, NodeWithStringPorts).create_tree_from_text(tree(
        '<Sequence><SetBlackboard value="{point_value}" output_key="other_point"/><Sleep msec="5"/>'
        '<SetBlackboard value="{string_value}" output_key="other_point"/></Sequence>'), board)
    tree_.tick_exactly_once()  # the first SetBlackboard types other_point as TestPoint
    with pytest.raises(BehaviorTreeError):
        tree_.tick_while_running(0.001)


# ---- Section 7: BT::Any (typing.Any here) ---------------------------------------------------
def test_BTAny_EntryType_AllowsDifferentTypes():
    board = Blackboard()
    board.create_entry("key", typing.Any)
    for value in (42, "hello", 3.14):
        board.set("key", value)
        assert board.get("key") == value


def test_BTAny_Port_AcceptsDifferentTypes():
    factory_with(NodeWithAnyPorts, NodeWithIntPorts).create_tree_from_text(tree(
        '<Sequence><NodeWithAnyPorts output="{value}"/><NodeWithIntPorts input="{value}" output="{result}"/>'
        '</Sequence>'))


def test_BTAny_InputPort_ReadsAsString():
    result = []

    class GetAnyAsString(SyncActionNode):
        @staticmethod
        def provided_ports():
            return [InputPort("input", typing.Any)]

        def tick(self):
            result.append(convert_value(self.get_input("input"), str))  # getInput<std::string>
            return NodeStatus.SUCCESS

    tree_ = factory_with(GetAnyAsString, NodeWithIntPorts).create_tree_from_text(tree(
        '<Sequence><NodeWithIntPorts input="21" output="{value}"/><GetAnyAsString input="{value}"/></Sequence>'))
    assert tree_.tick_while_running() is NodeStatus.SUCCESS
    assert result == ["42"]


# ---- Section 8: isStronglyTyped -------------------------------------------------------------
def test_IsStronglyTyped_TypeInfo():
    assert class_key(None) is None  # AnyTypeAllowed
    assert class_key(int) == "int" and class_key(str) == "std::string"
    assert class_key(typing.Any) is None  # BT::Any


def test_GenericPortDeclaration_DefaultsToAnyTypeAllowed():
    port = InputPort("test_port")
    assert port.type is None and port_key(port) is None


# ---- Section 9: edge cases ------------------------------------------------------------------
def test_GenericToTyped_ChainThroughBlackboard():
    tree_ = factory_with(NodeWithGenericPorts, NodeWithIntPorts).create_tree_from_text(tree(
        '<Sequence><NodeWithIntPorts input="10" output="{value}"/>'
        '<NodeWithGenericPorts input="{value}" output="{generic}"/>'
        '<NodeWithIntPorts input="{value}" output="{result}"/></Sequence>'))
    assert tree_.tick_while_running() is NodeStatus.SUCCESS
    assert tree_.root_blackboard.get("result") == 40


def test_MixedTypesWithGenericIntermediate():
    factory_with(NodeWithIntPorts, NodeWithGenericPorts).create_tree_from_text(tree(
        '<Sequence><NodeWithIntPorts input="42" output="{matching}"/>'
        '<NodeWithGenericPorts input="{matching}" output="{generic_out}"/>'
        '<NodeWithIntPorts input="{matching}" output="{result}"/></Sequence>'))


def test_StringLiteralValidation_InvalidFormat():
    with pytest.raises(XmlError, match="can not be converted to int"):
        factory_with(NodeWithIntPorts).create_tree_from_text(tree(
            '<NodeWithIntPorts input="not_a_number" output="{result}"/>'))


def test_StringLiteralValidation_ValidFormat():
    factory_with(NodeWithIntPorts).create_tree_from_text(tree('<NodeWithIntPorts input="42" output="{result}"/>'))


def test_CustomTypeStringLiteral_ValidFormat():
    tree_ = factory_with(NodeWithTestPointPorts).create_tree_from_text(tree(
        '<NodeWithTestPointPorts input="1.5;2.5" output="{result}"/>'))
    assert tree_.tick_while_running() is NodeStatus.SUCCESS


def test_CustomTypeStringLiteral_InvalidFormat():
    with pytest.raises(XmlError, match="can not be converted to TestPoint"):
        factory_with(NodeWithTestPointPorts).create_tree_from_text(tree(
            '<NodeWithTestPointPorts input="1.5" output="{result}"/>'))


def test_StringToDifferentTypes():
    tree_ = factory_with(NodeWithStringPorts, NodeWithIntPorts, NodeWithDoublePorts).create_tree_from_text(tree(
        '<Sequence><NodeWithStringPorts input="42" output="{value}"/>'
        '<NodeWithIntPorts input="{value}" output="{test_int}"/>'
        '<NodeWithDoublePorts input="{value}" output="{test_double}"/></Sequence>'))
    tree_.tick_while_running()
    assert tree_.root_blackboard.get("test_int") == 84
    assert tree_.root_blackboard.get("test_double") == 42.0


# ---- Section 10: reserved port names ----------------------------------------------------------
def test_ReservedPortName_ThrowsOnRegistration():
    class IllegalPortNameNode(SyncActionNode):
        @staticmethod
        def provided_ports():
            return [InputPort("name", str)]

        def tick(self):
            return NodeStatus.SUCCESS

    with pytest.raises(ValueError, match="reserved"):
        BehaviorTreeFactory().register_node_type(IllegalPortNameNode)
