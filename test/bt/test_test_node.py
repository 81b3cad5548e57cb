"""TestNode and TestNodeConfig: what a mock returns, when, and which scripts it runs.

Sources, per test: "gtest_substitution" = transcribed from BT.CPP 4.10's
tests/gtest_substitution.cpp; "test_node.cpp" = the behaviour of 4.10's
src/actions/test_node.cpp (onStart/onRunning/onHalted/onCompleted), written as
tick-by-tick expectations; "recorded" = checked against BT.CPP 4.10.0 built from source.
behaviortreepy (BT.CPP 4.8.2) has no TestNode, so none of these can run against it.
"""
from __future__ import annotations

import threading
import time

import pytest

from robot_tasks.bt import BehaviorTreeError, BehaviorTreeFactory, Blackboard, NodeStatus, XmlError
from robot_tasks.bt.testing import TestNode, TestNodeConfig

S, F, R, K, I = (NodeStatus.SUCCESS, NodeStatus.FAILURE, NodeStatus.RUNNING, NodeStatus.SKIPPED,
                 NodeStatus.IDLE)
pytestmark = pytest.mark.timeout(60)

SINGLE_ACTION = """<root BTCPP_format="4"><BehaviorTree ID="MainTree">
  <AlwaysSuccess name="action_A"/></BehaviorTree></root>"""
SCRIPT_THEN_A = """<root BTCPP_format="4"><BehaviorTree ID="MainTree"><Sequence>
  <Script code="mock_should_fail := {fail}"/><AlwaysSuccess name="action_A"/></Sequence></BehaviorTree></root>"""


def tree_with(config: TestNodeConfig, xml: str = SINGLE_ACTION, blackboard=None, factory=None):
    factory = factory or BehaviorTreeFactory()
    factory.add_substitution_rule("action_A", config)
    return factory.create_tree_from_text(xml, blackboard)


def mock_of(tree) -> TestNode:
    return next(node for node in tree.nodes if isinstance(node, TestNode))


def test_post_script_uses_registered_enums():
    """gtest_substitution TestNodePostScriptUsesRegisteredEnums."""
    factory = BehaviorTreeFactory()
    factory.register_scripting_enum("EXPECTED_VALUE", 42)
    board = Blackboard()
    tree = tree_with(TestNodeConfig(return_status=S, post_script="observed := EXPECTED_VALUE"),
                     blackboard=board, factory=factory)
    assert tree.tick_while_running() is S and board.get("observed") == 42


def test_post_script_reads_a_status_named_blackboard_key():
    """gtest_substitution TestNodePostScriptReadsStatusNamedBlackboardKey: the status
    names are for return_status_script only."""
    board = Blackboard()
    board.set("SUCCESS", 99)
    tree = tree_with(TestNodeConfig(return_status=S, post_script="observed := SUCCESS"), blackboard=board)
    assert tree.tick_while_running() is S and board.get("observed") == 99


@pytest.mark.parametrize("fail,status,branch", [("true", F, "failure"), ("false", S, "success")])
def test_scripted_return_status_runs_the_matching_script(fail, status, branch):
    """gtest_substitution ScriptedReturnStatusFromJson / ...OverridesFixedStatus: the
    script wins over return_status, then success_script or failure_script runs."""
    board = Blackboard()
    tree = tree_with(TestNodeConfig(return_status=S,
                                    return_status_script="(mock_should_fail == true) ? FAILURE : SUCCESS",
                                    success_script="branch := 'success'", failure_script="branch := 'failure'"),
                     SCRIPT_THEN_A.format(fail=fail), board)
    assert tree.tick_while_running() is status and board.get("branch") == branch


def test_scripted_return_status_async_does_not_hang():
    """gtest_substitution ScriptedReturnStatusAsyncSubstitution (50 ms delay, SUCCESS)."""
    tree = tree_with(TestNodeConfig(return_status_script="(mock_should_fail == true) ? FAILURE : SUCCESS",
                                    async_delay=50), SCRIPT_THEN_A.format(fail="false"))
    assert tree.tick_while_running() is S


def test_scripted_return_status_rejects_idle():
    """gtest_substitution ScriptedReturnStatusRejectsIdle: a RuntimeError when ticked."""
    tree = tree_with(TestNodeConfig(return_status_script="IDLE"))
    with pytest.raises(BehaviorTreeError, match="invalid status"):
        tree.tick_while_running()


@pytest.mark.parametrize("script,message", [("5", "invalid status"), ("2.5", "NodeStatus-compatible"),
                                            ("'success'", "Cannot convert"), ("'FAILURE'", None)])
def test_script_results_a_status_can_come_from(script, message):
    """test_node.cpp convertScriptResultToStatus: a status name (exact case) or an
    integral number 1..4; anything else is an error at tick time."""
    tree = tree_with(TestNodeConfig(return_status_script=script))
    if message is None:
        assert tree.tick_while_running() is F
    else:
        with pytest.raises(BehaviorTreeError, match=message):
            tree.tick_while_running()


def test_async_config_with_delay_does_not_hang_issue_930():
    """gtest_substitution TestNodeConfigAsyncSubstitution_Issue930: 100 ms mock as the
    second child; the timer's wake-up ends the wait."""
    xml = ('<root BTCPP_format="4"><BehaviorTree ID="MainTree"><Sequence><AlwaysSuccess name="x"/>'
           '<AlwaysSuccess name="action_A"/></Sequence></BehaviorTree></root>')
    tree = tree_with(TestNodeConfig(return_status=S, async_delay=100), xml)
    start = time.monotonic()
    assert tree.tick_while_running(sleep_s=5.0) is S   # woken by the timer, not the 5 s sleep
    assert 0.09 < time.monotonic() - start < 2.0


def test_synchronous_mock_completes_in_its_first_tick():
    """test_node.cpp onStart: async_delay <= 0 completes at once (IDLE -> SUCCESS, no
    RUNNING in between, as recorded from 4.10)."""
    tree = tree_with(TestNodeConfig(return_status=F, post_script="done := 1"))
    changes = []
    tree.subscribe_status_changes(lambda node, old, new: changes.append((old, new)))
    assert tree.tick_exactly_once() is F
    assert changes[:1] == [(I, F)] and tree.root_blackboard.get("done") == 1


def test_asynchronous_mock_is_running_until_its_timer_fires():
    """test_node.cpp: RUNNING from the first tick until the timer fires, then the
    scripts run on the next tick (not on the timer thread)."""
    tree = tree_with(TestNodeConfig(return_status=S, async_delay=80, post_script="done := 1"))
    assert tree.tick_exactly_once() is R
    assert tree.tick_exactly_once() is R and "done" not in tree.root_blackboard
    assert tree.sleep(2.0) is True          # the timer's wake-up
    assert "done" not in tree.root_blackboard
    assert tree.tick_exactly_once() is S and tree.root_blackboard.get("done") == 1


def test_halt_cancels_the_timer_and_runs_no_script():
    """test_node.cpp onHalted: the timer is cancelled; a halted mock starts over."""
    tree = tree_with(TestNodeConfig(return_status=S, async_delay=60, post_script="done := 1"))
    assert tree.tick_exactly_once() is R
    tree.halt_tree()
    assert mock_of(tree).status is I
    time.sleep(0.15)                        # past the cancelled deadline
    assert "done" not in tree.root_blackboard
    assert tree.tick_exactly_once() is R    # a new start: RUNNING again, a new timer
    assert tree.tick_while_running() is S and tree.root_blackboard.get("done") == 1


def test_a_synchronous_running_mock_stays_running():
    """test_node.cpp: `completed` is only set by the timer, so a synchronous mock that
    resolves to RUNNING is never completed again."""
    tree = tree_with(TestNodeConfig(return_status=R, post_script="calls := 1"))
    assert [tree.tick_exactly_once() for _ in range(3)] == [R, R, R]


def test_an_async_running_mock_re_evaluates_every_tick_after_its_delay():
    """test_node.cpp: after the delay `completed` stays true, so every later tick runs
    onCompleted again: a "wait until the blackboard says so" mock."""
    board = Blackboard()
    board.set("polls", 0)
    tree = tree_with(TestNodeConfig(return_status_script="polls >= 3 ? SUCCESS : RUNNING",
                                    post_script="polls += 1", async_delay=1), blackboard=board)
    assert tree.tick_while_running(sleep_s=0.5) is S
    assert board.get("polls") == 4


def test_skipped_completion_is_reported_and_not_stored():
    """test_node.cpp allows SKIPPED; tree_node.cpp does not store it."""
    tree = tree_with(TestNodeConfig(return_status=K))
    assert tree.tick_exactly_once() is K and mock_of(tree).status is I


def test_complete_func_wins_over_script_and_status():
    """test_node.h: complete_func, then return_status_script, then return_status."""
    calls = []
    tree = tree_with(TestNodeConfig(return_status=S, return_status_script="SUCCESS",
                                    complete_func=lambda: calls.append(1) or F))
    assert tree.tick_while_running() is F and calls == [1]


def test_return_status_idle_is_refused_when_the_tree_is_created():
    """test_node.cpp constructor: validateTestNodeStatus(return_status)."""
    with pytest.raises(XmlError, match="invalid status"):
        tree_with(TestNodeConfig(return_status=I))


def test_a_script_syntax_error_is_a_creation_error():
    """test_node.cpp constructor: every script is parsed when the node is made."""
    with pytest.raises(XmlError, match="post_script|script"):
        tree_with(TestNodeConfig(return_status=S, post_script="x := := 1"))


def test_pre_and_post_conditions_of_the_original_still_apply():
    """xml_parsing.cpp passes the original's conditions in the config; the factory
    attaches them to whatever node it built."""
    xml = ('<root BTCPP_format="4"><BehaviorTree ID="M"><AlwaysSuccess name="action_A" _skipIf="skip == 1"'
           ' _onFailure="seen := 1"/></BehaviorTree></root>')
    board = Blackboard()
    board.set("skip", 0)
    tree = tree_with(TestNodeConfig(return_status=F), xml, board)
    assert tree.tick_while_running() is F and board.get("seen") == 1
    board.set("skip", 1)
    assert tree.tick_while_running() is K


def test_config_fields_and_defaults():
    """test_node.h's TestNodeConfig fields; async_delay in ms (a timedelta is taken too)."""
    import datetime

    config = TestNodeConfig()
    assert (config.return_status, config.async_delay, config.complete_func) == (S, 0, None)
    assert config.success_script == config.failure_script == config.post_script == config.return_status_script == ""
    assert TestNodeConfig(async_delay=datetime.timedelta(seconds=2)).async_delay == 2000
    assert TestNodeConfig(return_status="FAILURE").return_status is F
    with pytest.raises(BehaviorTreeError):
        TestNodeConfig(return_status="failure")


def test_the_timer_never_runs_scripts_concurrently_with_a_tick():
    """Scripts run in the ticking thread only (the timer callback sets a flag)."""
    threads = set()
    tree = tree_with(TestNodeConfig(async_delay=5, complete_func=lambda: threads.add(threading.get_ident()) or S))
    assert tree.tick_while_running() is S and threads == {threading.get_ident()}
