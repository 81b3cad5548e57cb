"""robot_tasks.testing.tree_mocks: the forms `mocks` and `blackboard` take, and its errors.

A user's test of a tree is meant to be about five lines (see the module docstring);
these check that each form of mock means what the docstring says.
"""
from __future__ import annotations

import json

import pytest

from robot_tasks.bt import BehaviorTreeError, BehaviorTreeFactory, Blackboard, NodeStatus, SubstitutionError
from robot_tasks.bt.testing import TestNodeConfig
from robot_tasks.bt.testing.mock_run import UnmockedNodesError
from robot_tasks.testing.tree_mocks import run_tree

S, F = NodeStatus.SUCCESS, NodeStatus.FAILURE
TREE = """<root BTCPP_format="4" main_tree_to_execute="Main">
  <BehaviorTree ID="Main">
    <Fallback name="try">
      <Sequence name="direct"><CheckPath name="path_clear"/><MoveTo name="go" goal="{goal}"/></Sequence>
      <Sequence name="detour"><MoveTo name="sidestep" goal="{side}"/><MoveTo name="go_around" goal="{goal}"/></Sequence>
    </Fallback>
  </BehaviorTree>
  <TreeNodesModel><Action ID="MoveTo"><input_port name="goal"/></Action></TreeNodesModel>
</root>"""


@pytest.fixture
def tree(tmp_path):
    path = tmp_path / "tree.xml"
    path.write_text(TREE)
    return path


def test_five_lines(tree):
    run = run_tree(tree, {"CheckPath": "FAILURE", "MoveTo": "SUCCESS"})
    assert run.status is S
    assert run.visited == ["try", "direct", "path_clear", "detour", "sidestep", "go_around"]


def test_each_form_of_mock(tree, tmp_path):
    rules = tmp_path / "rules.json"
    rules.write_text(json.dumps({"TestNodeConfigs": {"Blocked": {"return_status": "FAILURE"}},
                                 "SubstitutionRules": {"CheckPath": "Blocked"}}))
    run = run_tree(tree, [rules,                                        # a BT.CPP rules file
                          {"SubstitutionRules": {"MoveTo": "AlwaysSuccess"}},  # the same format, as a dict
                          {"sidestep": {"return_status": "SUCCESS", "post_script": "stepped := true"},
                           "go_around": TestNodeConfig(return_status=F),
                           "go": NodeStatus.SUCCESS}])
    assert run.status is F
    assert run.statuses("path_clear") == [F] and run.statuses("go_around") == [F]
    assert run.blackboard.get("stepped") == 1.0


def test_blackboard_forms(tree, tmp_path):
    mocks = {"CheckPath": {"return_status_script": "clear ? SUCCESS : FAILURE"}, "MoveTo": "SUCCESS"}
    assert "go" in run_tree(tree, mocks, blackboard={"clear": True}).visited
    board_file = tmp_path / "board.json"
    board_file.write_text('{"clear": false}')
    assert "go" not in run_tree(tree, mocks, blackboard=board_file).visited
    board = Blackboard()
    board.set("clear", True)
    assert run_tree(tree, mocks, blackboard=board).blackboard is board


def test_real_nodes_stay_unless_mocked(tree):
    factory = BehaviorTreeFactory()
    factory.register_simple_condition("CheckPath", lambda node: S)
    run = run_tree(tree, {"MoveTo": "SUCCESS"}, factory=factory)
    assert run.visited == ["try", "direct", "path_clear", "go"]


def test_unmocked_leaves_are_listed(tree):
    with pytest.raises(UnmockedNodesError) as caught:
        run_tree(tree, {"CheckPath": "SUCCESS", "go": "SUCCESS"})
    assert "MoveTo: sidestep, go_around" in str(caught.value)
    assert [node.name for node in caught.value.nodes] == ["sidestep", "go_around"]


def test_errors_name_the_rules_file(tree, tmp_path):
    rules = tmp_path / "rules.json"
    rules.write_text('{"SubstitutionRules": {"MoveTo": 1}}')
    with pytest.raises(SubstitutionError, match=f"{rules}: SubstitutionRules.MoveTo"):
        run_tree(tree, rules)
    with pytest.raises(BehaviorTreeError, match="cannot be imported"):
        run_tree(tree, {"CheckPath": "SUCCESS", "MoveTo": "SUCCESS"}, blackboard={"x": {"__type": "Unknown"}})


def test_a_tree_that_never_ends_is_halted_at_max_ticks(tree):
    run = run_tree(tree, {"CheckPath": "SUCCESS", "MoveTo": "RUNNING"}, max_ticks=3, tick_period_s=0.001)
    assert run.status is NodeStatus.RUNNING and run.timed_out and run.ticks == 3
    assert run.halted("go") == 1
