"""Substitution rules: which node a rule replaces, with what, and what happens around it.

Sources, per test (behaviortreepy 0.1.4 = BT.CPP 4.8.2 has no substitution API, so
nothing here can run against it):
- "gtest_substitution": transcribed from BT.CPP 4.10's tests/gtest_substitution.cpp;
- "t15": BT.CPP 4.10's examples/t15_nodes_mocking.cpp and the docs' tutorial on
  substitution rules (its JSON, its expected output);
- "gtest_match": tests/gtest_match.cpp (wildcards_match);
- "recorded": expected values recorded from BT.CPP 4.10.0 built from source, with a
  small harness that printed the rule map's iteration order, every node's fullPath(),
  registrationName(), type and whether it was a TestNode, and every status change.
  (400+ random trees x rule sets were compared that way while writing this; these
  cases are the ones kept.)
"""
from __future__ import annotations

import pytest

from robot_tasks.bt import (
    BehaviorTreeError,
    BehaviorTreeFactory,
    InputPort,
    NodeStatus,
    NodeType,
    SubstitutionError,
    XmlError,
)
from robot_tasks.bt.testing import TestNode, TestNodeConfig, wildcards_match
from robot_tasks.bt.testing.rule_order import UnorderedKeys, std_string_hash

S, F = NodeStatus.SUCCESS, NodeStatus.FAILURE
pytestmark = pytest.mark.timeout(60)

SINGLE_ACTION = """<root BTCPP_format="4"><BehaviorTree ID="MainTree">
  <AlwaysSuccess name="action_A"/></BehaviorTree></root>"""

# t15's tree, with our leaves: Ok says what it is and its message, Bad fails
T15 = """<root BTCPP_format="4" main_tree_to_execute="MainTree">
  <BehaviorTree ID="MainTree">
    <Sequence>
      <Ok name="talk" message="hello"/>
      <SubTree ID="MySub" name="mysub"/>
      <Ok message="plain"/>
      <Sequence name="counting">
        <Ok message="1"/>
        <Bad message="2"/>
      </Sequence>
      <SubTree ID="MySub"/>
    </Sequence>
  </BehaviorTree>
  <BehaviorTree ID="MySub">
    <Sequence>
      <Ok name="action_subA"/>
      <Cond name="check" value="3"/>
    </Sequence>
  </BehaviorTree>
</root>"""


def leaves_factory(said: list):
    """Ok/Bad/Repl/Repl2 actions and a Cond condition that append 'ID path [message]' to `said`."""
    factory = BehaviorTreeFactory()

    def leaf(status, tag):
        def tick(node):
            message = node.get_input("message", None)
            said.append(f"{tag} {node.full_path}" + (f" message={message}" if message is not None else ""))
            return status
        return tick

    factory.register_simple_action("Ok", leaf(S, "Ok"), ports=[InputPort("message", str)])
    factory.register_simple_action("Bad", leaf(F, "Bad"), ports=[InputPort("message", str)])
    factory.register_simple_action("Repl", leaf(S, "Repl"))
    factory.register_simple_action("Repl2", leaf(S, "Repl2"))
    factory.register_simple_condition("Cond", leaf(S, "Cond"), ports=[InputPort("value", int)])
    return factory


def describe(tree):
    return [(node.uid, node.full_path, node.registration_id, node.type.value, isinstance(node, TestNode))
            for subtree in tree.subtrees for node in subtree.nodes]


# ---- wildcards (gtest_match) ---------------------------------------------------------------
@pytest.mark.parametrize("text,pattern,expected", [
    ("prefix/suffix", "*/suffix", True), ("prefix/suffix", "prefix/*", True), ("prefix/suffix", "pre*fix", True),
    ("prefix/suffix", "*/suff", False), ("prefix/suffix", "pre/*", False), ("prefix/suffix", "pre*fi", False),
    ("prefix/suffix", "re*fix", False),
    # beyond gtest_match, from wildcards.hpp's definition: ? is one character, * may be empty
    ("a/b/c", "*", True), ("", "*", True), ("", "?", False), ("abc", "a?c", True), ("ac", "a?c", False),
    ("Sequence::1", "Sequence::?", True), ("talk", "Talk", False), ("pick/approach", "approach", False),
])
def test_wildcards_match_as_btcpp(text, pattern, expected):
    """gtest_match (first seven) and wildcards.hpp."""
    assert wildcards_match(text, pattern) is expected


# ---- the rule map's order (recorded) --------------------------------------------------------
def test_rule_order_is_btcpp_unordered_map_order():
    """recorded: BT.CPP 4.10 printed its substitutionRules() in this order after
    addSubstitutionRule(counting), (talk), (mysub/*), (*sub*), (MySub)."""
    factory = BehaviorTreeFactory()
    for pattern in ["counting", "talk", "mysub/*", "*sub*", "MySub"]:
        factory.add_substitution_rule(pattern, "Repl")
    assert list(factory.substitution_rules) == ["MySub", "*sub*", "mysub/*", "talk", "counting"]


def test_rule_order_of_a_json_text_is_sorted_then_hashed():
    """recorded: loadSubstitutionRuleFromJSON({"b": .., "a": .., "*": ..}) -> order b, a, *
    (nlohmann sorts the keys: *, a, b; the map then orders them by hash)."""
    factory = BehaviorTreeFactory()
    factory.load_substitution_rule_from_json('{"TestNodeConfigs": {"X": {"return_status": "SUCCESS"}},'
                                             ' "SubstitutionRules": {"b": "X", "a": "Y", "*": "X"}}')
    assert list(factory.substitution_rules) == ["b", "a", "*"]


def test_std_hash_and_growth_of_libstdcxx():
    """recorded from g++ 12's std::hash<std::string> and unordered_map (the machine that
    built BT.CPP here): hashes of a few strings, and the bucket counts while growing."""
    assert std_string_hash("") == 6142509188972423790
    assert std_string_hash("talk") == std_string_hash("talk") != std_string_hash("Talk")
    keys = UnorderedKeys()
    counts = []
    for i in range(600):
        keys.add(f"k{i}")
        if not counts or counts[-1] != keys.bucket_count:
            counts.append(keys.bucket_count)
    assert counts == [13, 29, 59, 127, 257, 541, 1109]
    keys.clear()
    assert len(keys) == 0 and keys.bucket_count == 1109  # clear() keeps the buckets


# ---- which node, replaced by what (recorded + t15) -------------------------------------------
def test_t15_tree_substituted_node_by_node():
    """recorded: the t15 tree with rules counting -> TestNode(SUCCESS), talk -> Repl,
    mysub/* -> Repl2, *sub* -> Repl, MySub -> TestNode(FAILURE). BT.CPP 4.10 built
    exactly these nodes (the substituted SubTrees are not expanded; the children of the
    replaced Sequence are created but orphaned) and printed exactly these ticks."""
    said: list = []
    factory = leaves_factory(said)
    factory.add_substitution_rule("counting", TestNodeConfig(return_status=S))
    factory.add_substitution_rule("talk", "Repl")
    factory.add_substitution_rule("mysub/*", "Repl2")
    factory.add_substitution_rule("*sub*", "Repl")
    factory.add_substitution_rule("MySub", TestNodeConfig(return_status=F))
    factory.register_behavior_tree_from_text(T15)
    tree = factory.create_tree("MainTree")
    assert describe(tree) == [
        (1, "Sequence::1", "Sequence", "Control", False), (2, "talk", "Ok", "Action", False),
        (3, "mysub", "SubTree", "Action", False), (4, "Ok::4", "Ok", "Action", False),
        (5, "counting", "Sequence", "Action", True), (6, "Ok::6", "Ok", "Action", False),
        (7, "Bad::7", "Bad", "Action", False), (8, "MySub::8", "SubTree", "Action", True)]
    assert [subtree.instance_name for subtree in tree.subtrees] == [""]
    changes = []
    tree.subscribe_status_changes(lambda node, old, new: changes.append((node.uid, old.name, new.name)))
    assert tree.tick_once() is F
    assert said == ["Repl talk message=hello", "Repl mysub", "Ok Ok::4 message=plain"]
    assert changes == [(1, "IDLE", "RUNNING"), (2, "IDLE", "RUNNING"), (2, "RUNNING", "SUCCESS"),
                       (3, "IDLE", "RUNNING"), (3, "RUNNING", "SUCCESS"), (4, "IDLE", "RUNNING"),
                       (4, "RUNNING", "SUCCESS"), (5, "IDLE", "SUCCESS"), (8, "IDLE", "FAILURE"),
                       (2, "SUCCESS", "IDLE"), (3, "SUCCESS", "IDLE"), (4, "SUCCESS", "IDLE"),
                       (5, "SUCCESS", "IDLE"), (8, "FAILURE", "IDLE"), (1, "RUNNING", "FAILURE"),
                       (1, "FAILURE", "IDLE")]
    assert tree.nodes[6].substituted_by is None and tree.nodes[4].substituted_by == "counting"


def test_t15_paths_without_rules():
    """t15's expected output: every node's fullPath() (an unnamed node gets ::UID)."""
    factory = leaves_factory([])
    factory.register_behavior_tree_from_text(T15)
    tree = factory.create_tree("MainTree")
    assert [node.full_path for node in tree.nodes] == [
        "Sequence::1", "talk", "mysub", "mysub/Sequence::4", "mysub/action_subA", "mysub/check", "Ok::7",
        "counting", "Ok::9", "Bad::10", "MySub::11", "MySub::11/Sequence::12", "MySub::11/action_subA",
        "MySub::11/check"]


def test_when_two_rules_match_the_first_in_map_order_wins():
    """recorded: 'Ok' (by ID) and 'talk' (by name) both match [talk]; BT.CPP's map puts
    'talk' first, so [talk] is a TestNode and the other Ok nodes are Repl."""
    said: list = []
    factory = leaves_factory(said)
    factory.add_substitution_rule("Ok", "Repl")
    factory.add_substitution_rule("talk", TestNodeConfig(return_status=F))
    assert list(factory.substitution_rules) == ["talk", "Ok"]
    assert factory.substitution_rules.matching_rules("talk", "Ok", "talk") == ["talk", "Ok"]
    tree = factory.create_tree_from_text(T15)
    assert isinstance(tree.nodes[1], TestNode)
    assert [n.full_path for n in tree.nodes if n.substituted_by == "Ok"] == [
        "mysub/action_subA", "Ok::7", "Ok::9", "MySub::11/action_subA"]


def test_a_rule_by_id_catches_every_subtree():
    """recorded + bt_factory.cpp: a SubTree is instantiated with the ID "SubTree", so that rule
    replaces every SubTree node (and none is expanded)."""
    factory = leaves_factory([])
    factory.add_substitution_rule("SubTree", TestNodeConfig())
    tree = factory.create_tree_from_text(T15)
    assert len(tree.subtrees) == 1
    assert [n.full_path for n in tree.nodes if isinstance(n, TestNode)] == ["mysub", "MySub::8"]
    assert tree.tick_while_running() is F  # Bad still fails the counting sequence


def test_subtree_node_substitution_issue_934():
    """gtest_substitution SubTreeNodeSubstitution: a SubTree replaced by a TestNode
    creates and ticks fine."""
    factory = BehaviorTreeFactory()
    factory.register_behavior_tree_from_text('<root BTCPP_format="4"><BehaviorTree ID="Parent">'
                                             '<SubTree ID="Child" name="child"/></BehaviorTree></root>')
    factory.register_behavior_tree_from_text('<root BTCPP_format="4"><BehaviorTree ID="Child">'
                                             '<AlwaysSuccess/></BehaviorTree></root>')
    factory.add_substitution_rule("child", TestNodeConfig(return_status=S))
    tree = factory.create_tree("Parent")
    assert tree.tick_while_running() is S


def test_the_replacement_gets_the_original_ports_and_keeps_its_id():
    """recorded (t15's DummySaySomething): a replacement that declares no port still
    reads the original's `message`; StringSubstitutionRegistrationID_Issue930: the node
    keeps the registration ID it replaces."""
    said: list = []
    factory = leaves_factory(said)
    factory.add_substitution_rule("talk", "Repl")
    tree = factory.create_tree_from_text(T15)
    tree.tick_once()
    assert said[0] == "Repl talk message=hello"
    assert tree.nodes[1].registration_id == "Ok" and tree.nodes[1].type is NodeType.ACTION


def test_the_original_must_be_registered_and_the_xml_is_checked_as_written():
    """bt_factory.cpp: the manifest of the original ID is looked up first; the XML's
    ports are checked against the original's ports."""
    factory = leaves_factory([])
    factory.add_substitution_rule("Unknown", "Repl")
    with pytest.raises(XmlError, match="Unknown"):
        factory.create_tree_from_text('<root BTCPP_format="4"><BehaviorTree ID="M"><Unknown/></BehaviorTree></root>')
    factory.add_substitution_rule("talk", "Repl")
    with pytest.raises(XmlError, match="wrong_port"):
        factory.create_tree_from_text('<root BTCPP_format="4"><BehaviorTree ID="M">'
                                      '<Ok name="talk" wrong_port="1"/></BehaviorTree></root>')


def test_an_unregistered_replacement_id_fails_at_creation_naming_it():
    """bt_factory.cpp: "Substituted Node ID [X] not found", when the tree is created."""
    factory = leaves_factory([])
    factory.add_substitution_rule("talk", "NoSuchNode")
    with pytest.raises(BehaviorTreeError, match=r"Substituted Node ID \[NoSuchNode\] not found"):
        factory.create_tree_from_text(T15)


def test_rules_apply_when_a_tree_is_created_and_clear_drops_them():
    """bt_factory.h: "all substitutions must be done BEFORE creating the tree"."""
    factory = leaves_factory([])
    before = factory.create_tree_from_text(SINGLE_ACTION)
    factory.add_substitution_rule("action_A", TestNodeConfig(return_status=F))
    after = factory.create_tree_from_text(SINGLE_ACTION)
    assert before.tick_while_running() is S and after.tick_while_running() is F
    assert len(factory.substitution_rules) == 1
    factory.clear_substitution_rules()
    assert len(factory.substitution_rules) == 0
    assert factory.create_tree_from_text(SINGLE_ACTION).tick_while_running() is S


def test_a_config_is_stored_by_value():
    """bt_factory.h: the rule holds a TestNodeConfig by value (a later change of yours
    does not reach it)."""
    factory = BehaviorTreeFactory()
    config = TestNodeConfig(return_status=S)
    factory.add_substitution_rule("action_A", config)
    config.return_status = F
    assert factory.substitution_rules["action_A"].return_status is S
    assert factory.create_tree_from_text(SINGLE_ACTION).tick_while_running() is S


def test_a_rule_that_is_neither_id_nor_config_is_refused():
    factory = BehaviorTreeFactory()
    with pytest.raises(SubstitutionError, match="registration ID"):
        factory.add_substitution_rule("action_A", NodeStatus.SUCCESS)


def test_string_substitution_with_simple_action_issue_930():
    """gtest_substitution StringSubstitutionWithSimpleAction_Issue930: a Delay, then an
    action replaced by another simple action; does not hang."""
    factory = BehaviorTreeFactory()
    factory.register_simple_action("SaySomething", lambda node: S, ports=[InputPort("message", str)])
    ran = []
    factory.register_simple_action("MyTestAction", lambda node: ran.append(node.name) or S)
    factory.add_substitution_rule("action_to_replace", "MyTestAction")
    factory.register_behavior_tree_from_text(
        '<root BTCPP_format="4"><BehaviorTree ID="MainTree"><Sequence><Delay delay_msec="100"><AlwaysSuccess/>'
        '</Delay><SaySomething name="action_to_replace" message="hello"/></Sequence></BehaviorTree></root>')
    assert factory.create_tree("MainTree").tick_while_running() is S and ran == ["action_to_replace"]


def test_json_string_substitution_with_delay_issue_930():
    """gtest_substitution JsonStringSubstitutionWithDelay_Issue930: a Script replaced,
    from JSON, by a registered action."""
    factory = BehaviorTreeFactory()
    ran = []
    factory.register_simple_action("MyTest", lambda node: ran.append(1) or S)
    factory.load_substitution_rule_from_json('{"SubstitutionRules": {"script_2": "MyTest"}}')
    tree = factory.create_tree_from_text(
        '<root BTCPP_format="4"><BehaviorTree ID="MainTree"><Sequence><Delay delay_msec="50"><AlwaysSuccess/>'
        '</Delay><Script name="script_2" code=" val:=1 "/></Sequence></BehaviorTree></root>')
    assert tree.tick_while_running() is S and ran == [1]
    assert "val" not in tree.root_blackboard
