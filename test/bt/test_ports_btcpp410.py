"""BT.CPP 4.10's `tests/gtest_ports.cpp`, transcribed (one test per TEST, same name).

C++ `getInput(name, value)` returning false is `get_input(name, default)` returning the
default here (or a PortError, when the node does not pass one); a C++ exception at tree
creation is our XmlError. `InputPort<std::vector<double>>` is `InputPort(name, list[float])`,
`std::vector<std::string>` is `list`, and a struct with `convertFromString` is a class
with `from_string` (the `json:` prefix is the struct's own business in both).
Every TEST has an equivalent.
"""
import json
from dataclasses import dataclass

import pytest

from robot_tasks.bt import (
    BehaviorTreeFactory,
    InputPort,
    NodeConfig,
    NodeStatus,
    NodeType,
    OutputPort,
    PortError,
    SyncActionNode,
    XmlError,
)
from robot_tasks.bt.blackboard import Blackboard
from robot_tasks.bt.blackboard_json import export_blackboard_to_json, register_json_type
from robot_tasks.bt.ports import blackboard_key


class NodeWithPorts(SyncActionNode):
    @staticmethod
    def provided_ports():
        return [InputPort("in_port_A", int, default=42, description="magic_number"), InputPort("in_port_B", int)]

    def tick(self):
        val_a = self.get_input("in_port_A")  # raises PortError when missing, as the C++ throws
        val_b = self.get_input("in_port_B")
        return NodeStatus.SUCCESS if (val_a, val_b) == (42, 66) else NodeStatus.FAILURE


def factory_with(*classes):
    factory = BehaviorTreeFactory()
    for cls in classes:
        factory.register_node_type(cls)
    return factory


def main(body, extra=""):
    return f'<root BTCPP_format="4"><BehaviorTree ID="MainTree">{body}</BehaviorTree>{extra}</root>'


def test_WrongNodeConfig():
    node = NodeWithPorts("will_fail", NodeConfig(input_ports={"in_port_A": "42"}))
    with pytest.raises(PortError):
        node.tick()


def test_DefaultPorts():
    tree = factory_with(NodeWithPorts).create_tree_from_text(main('<NodeWithPorts in_port_B="66"/>'))
    assert tree.tick_while_running() is NodeStatus.SUCCESS


def test_MissingPort():
    tree = factory_with(NodeWithPorts).create_tree_from_text(main('<NodeWithPorts/>'))
    with pytest.raises(PortError):
        tree.tick_while_running()


def test_WrongPort():
    with pytest.raises(XmlError, match=r"\[da_port\]"):
        factory_with(NodeWithPorts).create_tree_from_text(main('<NodeWithPorts da_port="66"/>'))


def test_Descriptions():
    factory = factory_with(NodeWithPorts)
    factory.register_behavior_tree_from_text(
        '<root BTCPP_format="4"><BehaviorTree ID="MainTree" _description="this is my tree"><Sequence>'
        '<NodeWithPorts name="first" in_port_B="66" _description="this is my action"/>'
        '<SubTree ID="mySubTree" name="second" _description="this is a subtree"/></Sequence></BehaviorTree>'
        '<BehaviorTree ID="mySubTree" _description="this is a subtree">'
        '<NodeWithPorts name="third" in_port_B="99"/></BehaviorTree></root>')
    assert factory.create_tree("MainTree").tick_while_running() is NodeStatus.FAILURE  # in_port_B="99"


def test_NonPorts():
    tree = factory_with(NodeWithPorts).create_tree_from_text(main(
        '<Action ID="NodeWithPorts" name="NodeWithPortsName" in_port_B="66" _not_da_port="whateva" '
        '_skipIf="true"/>'))
    root = tree.root_node
    assert root.type is NodeType.ACTION
    assert root.config.other_attributes == {"_not_da_port": "whateva"}


@dataclass
class MyType:
    value: str = ""


def test_EmptyPort():
    class NodeInPorts(SyncActionNode):
        @staticmethod
        def provided_ports():
            return [InputPort("int_port", int), InputPort("any_port", MyType)]

        def tick(self):
            missing = object()
            if self.get_input("int_port", missing) is not missing and \
                    self.get_input("any_port", missing) is not missing:
                return NodeStatus.SUCCESS
            return NodeStatus.FAILURE

    class NodeOutPorts(SyncActionNode):
        @staticmethod
        def provided_ports():
            return [OutputPort("int_port", int), OutputPort("any_port", MyType)]

        def tick(self):
            return NodeStatus.SUCCESS

    tree = factory_with(NodeOutPorts, NodeInPorts).create_tree_from_text(main(
        '<Sequence><NodeInPorts int_port="{ip}" any_port="{ap}"/><NodeOutPorts int_port="{ip}" any_port="{ap}"/>'
        '</Sequence>'))
    assert tree.tick_while_running() is NodeStatus.FAILURE  # the entries are not set yet


def test_SubtreeStringInput_StringVector():
    states = []

    class ActionVectorStringIn(SyncActionNode):
        @staticmethod
        def provided_ports():
            return [InputPort("states", list)]

        def tick(self):
            states.extend(self.get_input("states"))
            return NodeStatus.SUCCESS

    factory = factory_with(ActionVectorStringIn)
    factory.register_behavior_tree_from_text(
        '<root BTCPP_format="4"><BehaviorTree ID="Main">'
        '<ActionVectorStringIn states="hello;world;with spaces"/></BehaviorTree></root>')
    assert factory.create_tree("Main").tick_while_running() is NodeStatus.SUCCESS
    assert states == ["hello", "world", "with spaces"]


@dataclass
class Point2D:
    x: int = 0
    y: int = 0

    @classmethod
    def from_string(cls, text):
        if text.startswith("json:"):
            data = json.loads(text[5:])
            return cls(data["x"], data["y"])
        parts = text.split(",")
        if len(parts) != 2:
            raise ValueError("invalid input)")
        return cls(int(parts[0]), int(parts[1]))


def test_DefaultInput():
    class DefaultTestAction(SyncActionNode):
        @staticmethod
        def provided_ports():
            return [InputPort("answer", int, default=42, description="the answer"),
                    InputPort("greeting", str, default="hello", description="be polite"),
                    InputPort("pos", Point2D, default=Point2D(1, 2), description="where")]

        def tick(self):
            if self.get_input("answer") != 42 or self.get_input("greeting") != "hello":
                return NodeStatus.FAILURE
            return NodeStatus.SUCCESS if self.get_input("pos") == Point2D(1, 2) else NodeStatus.FAILURE

    tree = factory_with(DefaultTestAction).create_tree_from_text(
        '<root BTCPP_format="4"><BehaviorTree><DefaultTestAction/></BehaviorTree></root>')
    assert tree.tick_once() is NodeStatus.SUCCESS


def test_DefaultInputPoint2D():
    class NodeWithDefaultPoints(SyncActionNode):
        @staticmethod
        def provided_ports():
            return [InputPort("input", Point2D, description="no default value"),
                    InputPort("pointA", Point2D, default=Point2D(1, 2), description="default value is [1,2]"),
                    InputPort("pointB", Point2D, default="{point}", description="default value inside blackboard"),
                    InputPort("pointC", Point2D, default="5,6", description="default value is [5,6]"),
                    InputPort("pointD", Point2D, default="{=}", description="default value inside blackboard"),
                    InputPort("pointE", Point2D, default='json:{"x":9,"y":10}', description="default is [9,10]")]

        def tick(self):
            expected = {"pointA": Point2D(1, 2), "pointB": Point2D(3, 4), "pointC": Point2D(5, 6),
                        "pointD": Point2D(7, 8), "pointE": Point2D(9, 10), "input": Point2D(-1, -2)}
            for port, value in expected.items():
                if self.get_input(port) != value:
                    raise RuntimeError(f"failed {port}")
            return NodeStatus.SUCCESS

    tree = factory_with(NodeWithDefaultPoints).create_tree_from_text(
        '<root BTCPP_format="4"><BehaviorTree><NodeWithDefaultPoints input="-1,-2"/></BehaviorTree></root>')
    tree.subtrees[0].blackboard.set("point", Point2D(3, 4))
    tree.subtrees[0].blackboard.set("pointD", Point2D(7, 8))
    assert tree.tick_once() is NodeStatus.SUCCESS


def test_DefaultInputStrings():
    class NodeWithDefaultStrings(SyncActionNode):
        @staticmethod
        def provided_ports():
            return [InputPort("input", str, description="no default"),
                    InputPort("msgA", str, default="hello", description="default value is 'hello'"),
                    InputPort("msgB", str, default="{msg}", description="default value inside blackboard {msg}"),
                    InputPort("msgC", str, default="{=}", description="default value inside blackboard {msgC}")]

        def tick(self):
            expected = {"input": "from XML", "msgA": "hello", "msgB": "ciao", "msgC": "hola"}
            for port, value in expected.items():
                if self.get_input(port) != value:
                    raise RuntimeError(f"failed {port}")
            return NodeStatus.SUCCESS

    tree = factory_with(NodeWithDefaultStrings).create_tree_from_text(
        '<root BTCPP_format="4"><BehaviorTree><NodeWithDefaultStrings input="from XML"/></BehaviorTree></root>')
    tree.subtrees[0].blackboard.set("msg", "ciao")
    tree.subtrees[0].blackboard.set("msgC", "hola")
    assert tree.tick_once() is NodeStatus.SUCCESS


@dataclass
class TestStruct:
    __test__ = False  # not a pytest class
    a: int
    b: float
    c: str


def test_Default_Issues_767():
    # std::optional / shared_ptr defaults of nullopt / nullptr: None here
    for port in (InputPort("opt_A", Point2D, default=None), InputPort("opt_B", str, default=None),
                 InputPort("ptr_A", Point2D, default=None), InputPort("ptr_B", str, default=None)):
        assert port.has_default and port.default is None


def test_DefaultWronglyOverriden():
    class NodeWithDefaultNullptr(SyncActionNode):
        @staticmethod
        def provided_ports():
            return [InputPort("input", TestStruct, default=None, description="default value is nullptr")]

        def tick(self):
            return NodeStatus.SUCCESS

    factory = factory_with(NodeWithDefaultNullptr)
    with pytest.raises(XmlError, match="can not be converted to TestStruct"):  # "" is not the default
        factory.create_tree_from_text(
            '<root BTCPP_format="4"><BehaviorTree><NodeWithDefaultNullptr input=""/></BehaviorTree></root>')
    factory.create_tree_from_text(
        '<root BTCPP_format="4"><BehaviorTree><NodeWithDefaultNullptr/></BehaviorTree></root>')


def test_GetInputDefaultValue_Issue858():
    results = []

    class ActionWithDefaultPort(SyncActionNode):
        @staticmethod
        def provided_ports():
            return [InputPort("log_name", str, default="my_default_logger", description="Logger name"),
                    InputPort("message", str, description="Message to be logged")]

        def tick(self):
            results.append(self.get_input("log_name"))
            return NodeStatus.SUCCESS

    tree = factory_with(ActionWithDefaultPort).create_tree_from_text(
        '<root BTCPP_format="4"><BehaviorTree ID="Main"><ActionWithDefaultPort message="hello"/>'
        '</BehaviorTree></root>')
    assert tree.tick_while_running() is NodeStatus.SUCCESS
    assert results == ["my_default_logger"]


def collect_double(collected):
    class CollectDoubleAction(SyncActionNode):
        @staticmethod
        def provided_ports():
            return [InputPort("value", float)]

        def tick(self):
            missing = object()
            value = self.get_input("value", missing)
            if value is missing:
                return NodeStatus.FAILURE
            collected.append(value)
            return NodeStatus.SUCCESS
    return CollectDoubleAction


def test_LoopNodeAcceptsVector_Issue969():
    class ProduceVectorDoubleAction(SyncActionNode):
        @staticmethod
        def provided_ports():
            return [OutputPort("numbers", list[float])]

        def tick(self):
            self.set_output("numbers", [10.0, 20.0, 30.0])
            return NodeStatus.SUCCESS

    collected = []
    factory = BehaviorTreeFactory()
    factory.register_node_type(ProduceVectorDoubleAction, "ProduceVectorDouble")
    factory.register_node_type(collect_double(collected), "CollectDouble")
    tree = factory.create_tree_from_text(main(
        '<Sequence><ProduceVectorDouble numbers="{nums}"/><LoopDouble queue="{nums}" value="{val}">'
        '<CollectDouble value="{val}"/></LoopDouble></Sequence>'))
    assert tree.tick_while_running() is NodeStatus.SUCCESS
    assert collected == [10.0, 20.0, 30.0]


def test_DefaultEmptyVector_Issue982():
    result = [None]

    class ActionWithDefaultEmptyVector(SyncActionNode):
        @staticmethod
        def provided_ports():
            return [InputPort("string_vector", list, default=[], description="A string vector")]

        def tick(self):
            result[0] = self.get_input("string_vector")
            return NodeStatus.SUCCESS

    tree = factory_with(ActionWithDefaultEmptyVector).create_tree_from_text(main('<ActionWithDefaultEmptyVector/>'))
    assert tree.tick_while_running() is NodeStatus.SUCCESS
    assert result[0] == []  # not ["json:[]"]


def test_JsonExporterVectorConverter_Issue989():
    @dataclass
    class TestPoint989:
        x: float = 0.0
        y: float = 0.0

    register_json_type(TestPoint989, lambda p: {"x": p.x, "y": p.y}, lambda d: TestPoint989(d["x"], d["y"]))
    board = Blackboard()
    board.set("one", TestPoint989(1.0, 2.0))
    board.set("many", [TestPoint989(1.0, 2.0), TestPoint989(3.0, 4.0)])
    exported = export_blackboard_to_json(board)
    assert (exported["one"]["x"], exported["one"]["y"]) == (1.0, 2.0)
    assert [(item["x"], item["y"]) for item in exported["many"]] == [(1.0, 2.0), (3.0, 4.0)]


def test_SubtreeStringLiteralToLoopDouble_Issue1065():
    collected = []
    factory = BehaviorTreeFactory()
    factory.register_node_type(collect_double(collected), "CollectDouble")
    factory.register_behavior_tree_from_text(
        '<root BTCPP_format="4"><BehaviorTree ID="MainTree"><SubTree ID="LoopSubTree" queue="1;2;3"/>'
        '</BehaviorTree><BehaviorTree ID="LoopSubTree"><LoopDouble queue="{queue}" value="{number}">'
        '<CollectDouble value="{number}"/></LoopDouble></BehaviorTree></root>')
    assert factory.create_tree("MainTree").tick_while_running() is NodeStatus.SUCCESS
    assert collected == [1.0, 2.0, 3.0]


def test_IsBlackboardPointerAllWhitespaceView():
    assert blackboard_key("   ", "port") is None
    assert blackboard_key("{key}", "port") == "key"
    assert blackboard_key("  {key}  ", "port") == "key"
    assert blackboard_key("value", "port") is None
