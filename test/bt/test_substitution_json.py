"""Substitution rules from BT.CPP's JSON format (`loadSubstitutionRuleFromJSON`).

Sources: "gtest_substitution" = transcribed from BT.CPP 4.10's tests/gtest_substitution.cpp;
"t15" = the JSON of examples/t15_nodes_mocking.cpp and docs/substitution_sample.json;
"bt_factory.cpp" = what 4.10's parser does with each field, and which texts it refuses
(checked against 4.10.0 built from source). behaviortreepy (4.8.2) has no such API.
"""
from __future__ import annotations

import json

import pytest

from robot_tasks.bt import BehaviorTreeFactory, NodeStatus, SubstitutionError
from robot_tasks.bt.testing import TestNodeConfig
from robot_tasks.bt.testing.rules_json import unknown_config_keys

JSON_TEXT = """
{
  "TestNodeConfigs": {
    "TestA": {"async_delay": 2000, "return_status": "SUCCESS", "post_script": "msg ='message SUBSTITUED'"},
    "TestB": {"return_status": "FAILURE"},
    "TestScript": {"return_status_script": "(mock_should_fail == true) ? FAILURE : SUCCESS",
                   "failure_script": "branch := 'failure'"}
  },
  "SubstitutionRules": {"actionA": "TestA", "actionB": "TestB", "actionC": "NotAConfig", "actionD": "TestScript"}
}"""


def loaded(text: str) -> BehaviorTreeFactory:
    factory = BehaviorTreeFactory()
    factory.load_substitution_rule_from_json(text)
    return factory


def test_parser():
    """gtest_substitution Parser."""
    rules = loaded(JSON_TEXT).substitution_rules
    assert len(rules) == 4 and set(rules) == {"actionA", "actionB", "actionC", "actionD"}
    a, b, d = rules["actionA"], rules["actionB"], rules["actionD"]
    assert (a.return_status, a.async_delay, a.post_script) == (NodeStatus.SUCCESS, 2000, "msg ='message SUBSTITUED'")
    assert (b.return_status, b.async_delay, b.post_script) == (NodeStatus.FAILURE, 0, "")
    assert d.return_status_script == "(mock_should_fail == true) ? FAILURE : SUCCESS"
    assert d.failure_script == "branch := 'failure'"
    assert rules["actionC"] == "NotAConfig"


def test_parser_rejects_missing_return_status_and_script():
    """gtest_substitution ParserRejectsMissingReturnStatusAndScript."""
    text = '{"TestNodeConfigs": {"BrokenConfig": {"post_script": "branch := \'unused\'"}},' \
           ' "SubstitutionRules": {"actionA": "BrokenConfig"}}'
    with pytest.raises(SubstitutionError, match=r"TestNodeConfig \[BrokenConfig\] must contain return_status"):
        loaded(text)


@pytest.mark.parametrize("text", ['{"TestNodeConfigs": {}, "SubstitutionRules": {"node_A": "ReplacementNode"}}',
                                  '{"SubstitutionRules": {"node_A": "ReplacementNode"}}'])
def test_test_node_configs_is_optional_issue_930(text):
    """gtest_substitution JsonWithEmptyTestNodeConfigs / JsonWithoutTestNodeConfigs_Issue930."""
    rules = loaded(text).substitution_rules
    assert dict(rules) == {"node_A": "ReplacementNode"}


def test_json_string_rule_to_a_registered_action_issue_930():
    """gtest_substitution JsonStringSubstitution_Issue930."""
    factory = BehaviorTreeFactory()
    factory.register_simple_action("MyReplacement", lambda node: NodeStatus.SUCCESS)
    factory.load_substitution_rule_from_json('{"TestNodeConfigs": {}, "SubstitutionRules": {"action_B": "MyReplacement"}}')
    tree = factory.create_tree_from_text('<root BTCPP_format="4"><BehaviorTree ID="MainTree"><Sequence>'
                                         '<AlwaysSuccess name="action_A"/><AlwaysSuccess name="action_B"/>'
                                         '</Sequence></BehaviorTree></root>')
    assert tree.tick_while_running() is NodeStatus.SUCCESS
    assert tree.nodes[2].substituted_by == "action_B"


def test_t15_sample_json():
    """t15 / docs/substitution_sample.json: wildcard, ID and config rules side by side."""
    rules = loaded('{"TestNodeConfigs": {"MyTest": {"async_delay": 2000, "return_status": "SUCCESS",'
                   ' "post_script": "msg =\'message SUBSTITUED\'"}}, "SubstitutionRules": {"mysub/action_*":'
                   ' "TestAction", "talk": "TestSaySomething", "last_action": "MyTest"}}').substitution_rules
    assert rules["mysub/action_*"] == "TestAction" and rules["talk"] == "TestSaySomething"
    assert isinstance(rules["last_action"], TestNodeConfig) and rules["last_action"].async_delay == 2000


@pytest.mark.parametrize("text,where", [
    ("nope", "not valid JSON"),
    ("[]", "must be a JSON object"),
    ("{}", 'missing "SubstitutionRules"'),
    ('{"SubstitutionRules": {"a": 3}}', "SubstitutionRules.a: expected"),
    ('{"SubstitutionRules": []}', "SubstitutionRules: expected an object"),
    ('{"TestNodeConfigs": {"X": {"return_status": "success"}}, "SubstitutionRules": {}}',
     "TestNodeConfigs.X.return_status: Cannot convert this to NodeStatus"),
    ('{"TestNodeConfigs": {"X": {"return_status": 2}}, "SubstitutionRules": {}}',
     "TestNodeConfigs.X.return_status: expected a string"),
    ('{"TestNodeConfigs": {"X": {"return_status": "SUCCESS", "async_delay": "2"}}, "SubstitutionRules": {}}',
     "TestNodeConfigs.X.async_delay: expected milliseconds"),
    ('{"TestNodeConfigs": {"X": {"return_status": "SUCCESS", "post_script": 5}}, "SubstitutionRules": {}}',
     "TestNodeConfigs.X.post_script: expected a string"),
    ('{"TestNodeConfigs": {"X": 1}, "SubstitutionRules": {}}', "TestNodeConfigs.X: expected an object"),
])
def test_errors_name_what_is_wrong(text, where):
    """bt_factory.cpp refuses each of these (nlohmann type errors, convertFromString, the
    missing-status check; arrays where objects belong are refused here, while BT.CPP
    reads them with index keys); our message names the place."""
    factory = BehaviorTreeFactory()
    factory.add_substitution_rule("kept", "AlwaysSuccess")
    with pytest.raises(SubstitutionError, match=where):
        factory.load_substitution_rule_from_json(text)
    assert list(factory.substitution_rules) == ["kept"]  # a text with an error adds nothing


def test_lenient_like_nlohmann():
    """bt_factory.cpp: async_delay is get<int>() (a float truncated, a bool 0/1),
    unknown keys ignored; 'IDLE' parses and is refused when the tree is created."""
    text = json.dumps({"TestNodeConfigs": {"X": {"return_status": "SUCCESS", "async_delay": 2.7, "typo_script": "x"},
                                           "Idle": {"return_status": "IDLE"}},
                       "SubstitutionRules": {"a": "X", "b": "Idle"}})
    rules = loaded(text).substitution_rules
    assert rules["a"].async_delay == 2 and rules["b"].return_status is NodeStatus.IDLE
    assert unknown_config_keys(text) == ["TestNodeConfigs.X.typo_script"]


def test_a_config_name_wins_over_a_registration_id():
    """bt_factory.cpp: a SubstitutionRules value that names a TestNodeConfig is that config."""
    rules = loaded('{"TestNodeConfigs": {"AlwaysFailure": {"return_status": "SUCCESS"}},'
                   ' "SubstitutionRules": {"x": "AlwaysFailure"}}').substitution_rules
    assert isinstance(rules["x"], TestNodeConfig)
