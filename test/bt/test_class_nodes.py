"""Class-based nodes and the simple registration helpers."""
import enum

import pytest
from bt_helpers import tree_xml

from robot_tasks.bt import (
    BehaviorTreeError,
    BehaviorTreeFactory,
    ConditionNode,
    ControlNode,
    DecoratorNode,
    InputPort,
    LogicError,
    NodeStatus,
    NodeType,
    OutputPort,
    StatefulActionNode,
)

S, F, R = NodeStatus.SUCCESS, NodeStatus.FAILURE, NodeStatus.RUNNING


class CountDown(StatefulActionNode):
    events = []

    @staticmethod
    def provided_ports():
        return [InputPort("steps", int, default=2)]

    def on_start(self):
        self.left = self.get_input("steps")
        self.events.append("start")
        return R

    def on_running(self):
        self.left -= 1
        self.events.append("running")
        return S if self.left <= 0 else R

    def on_halted(self):
        self.events.append("halted")


class FirstSuccess(ControlNode):
    """A tiny custom control: tick children until one succeeds."""

    def tick(self):
        for child in self.children:
            if child.execute_tick() is S:
                self.reset_children()
                return S
        self.reset_children()
        return F


class Twice(DecoratorNode):
    def tick(self):
        self.child.execute_tick()
        return self.child.execute_tick()


class IsEven(ConditionNode):
    @staticmethod
    def provided_ports():
        return [InputPort("value", int)]

    def tick(self):
        return S if self.get_input("value") % 2 == 0 else F


@pytest.fixture
def factory():
    CountDown.events = []
    factory = BehaviorTreeFactory()
    for cls in (CountDown, FirstSuccess, Twice, IsEven):
        factory.register_node_type(cls)
    return factory


def test_stateful_action_lifecycle(factory):
    tree = factory.create_tree_from_text(tree_xml('<CountDown steps="2"/>'))
    assert [tree.tick_once() for _ in range(3)] == [R, R, S]
    assert CountDown.events == ["start", "running", "running"]
    assert tree.tick_once() is R
    tree.halt_tree()
    assert CountDown.events[-2:] == ["start", "halted"]
    tree.halt_tree()
    assert CountDown.events.count("halted") == 1  # on_halted only when RUNNING


def test_custom_control_decorator_and_condition(factory):
    tree = factory.create_tree_from_text(tree_xml(
        '<FirstSuccess><IsEven value="3"/><Twice><IsEven value="4"/></Twice></FirstSuccess>'))
    assert tree.tick_once() is S
    assert factory.manifests["FirstSuccess"].type is NodeType.CONTROL
    assert factory.manifests["IsEven"].type is NodeType.CONDITION


def test_simple_registrations_and_node_api():
    factory = BehaviorTreeFactory()
    seen = []

    def say(node):
        seen.append((node.name, node.registration_id, node.get_input("message")))
        node.set_output("echo", node.get_input("message").upper())
        return S

    factory.register_simple_action("Say", say, ports=[InputPort("message"), OutputPort("echo")])
    factory.register_simple_condition("Ready", lambda node: S if node.blackboard.get("ready") else F)
    state = {"n": 0}

    def on_running(node):
        state["n"] += 1
        return S if state["n"] >= 2 else R

    factory.register_simple_stateful_action("Work", lambda node: R, on_running, lambda node: None)
    tree = factory.create_tree_from_text(tree_xml(
        '<Sequence><Ready/><Say name="greet" message="hi" echo="{loud}"/><Work/></Sequence>'))
    tree.root_blackboard.set("ready", True)
    assert tree.tick_while_running(0.0) is S
    assert seen == [("greet", "Say", "hi")]
    assert tree.root_blackboard.get("loud") == "HI"
    assert [node.registration_id for node in tree.nodes] == ["Sequence", "Ready", "Say", "Work"]


def test_sync_action_returning_running_is_an_error():
    factory = BehaviorTreeFactory()
    factory.register_simple_action("Bad", lambda node: R)
    tree = factory.create_tree_from_text(tree_xml('<Bad/>'))
    with pytest.raises(LogicError, match="MUST never return RUNNING"):
        tree.tick_once()


def test_returning_idle_or_garbage_is_an_error():
    factory = BehaviorTreeFactory()
    factory.register_simple_condition("Idle", lambda node: NodeStatus.IDLE)
    factory.register_simple_condition("Junk", lambda node: True)
    with pytest.raises(BehaviorTreeError, match="IDLE"):
        factory.create_tree_from_text(tree_xml('<Sequence><Idle/></Sequence>')).tick_once()
    with pytest.raises(LogicError, match="not a NodeStatus"):
        factory.create_tree_from_text(tree_xml('<Sequence><Junk/></Sequence>')).tick_once()


def test_duplicate_registration_and_unregister():
    factory = BehaviorTreeFactory()
    factory.register_simple_action("A", lambda node: S)
    with pytest.raises(BehaviorTreeError, match="already registered"):
        factory.register_simple_action("A", lambda node: S)
    assert factory.unregister_builder("A")
    with pytest.raises(BehaviorTreeError, match="builtin"):
        factory.unregister_builder("Sequence")


def test_scripting_enums():
    class Color(enum.IntEnum):
        RED = 1
        BLUE = 2

    factory = BehaviorTreeFactory()
    factory.register_scripting_enums(Color)
    factory.register_scripting_enum("GREEN", 3)
    tree = factory.create_tree_from_text(tree_xml('<Script code="c := BLUE + GREEN"/>'))
    tree.tick_once()
    assert tree.root_blackboard.get("c") == 5


def test_node_constructed_directly_for_unit_tests():
    node = IsEven("check", None)
    node.config.input_ports["value"] = "6"
    assert node.execute_tick() is S and node.status is S
