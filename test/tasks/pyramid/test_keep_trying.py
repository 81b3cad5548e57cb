"""KeepTrying: retries a failing child one attempt per tick, warns every warn_period s after
the first failure, gives up after max_attempts."""
from __future__ import annotations

import logging

from robot_tasks.bt import BehaviorTreeFactory, NodeStatus
from robot_tasks.tasks.pyramid import keep_trying
from robot_tasks.tasks.pyramid.keep_trying import KeepTrying


def tree_with(outcomes, **attributes):
    factory = BehaviorTreeFactory()
    factory.register_node_type(KeepTrying)
    results = iter(outcomes)
    factory.register_simple_action("Try", lambda _node: next(results))
    extra = " ".join(f'{k}="{v}"' for k, v in attributes.items())
    return factory.create_tree_from_text(f'<root BTCPP_format="4"><BehaviorTree ID="T">'
                                         f'<KeepTrying what="the test" {extra}><Try/></KeepTrying>'
                                         f'</BehaviorTree></root>')


def test_retries_until_success_and_warns_every_period(monkeypatch, caplog):
    clock = iter([0.0, 1.0, 6.0, 7.0, 12.0, 13.0])
    monkeypatch.setattr(keep_trying.time, "monotonic", lambda: next(clock))
    F, S = NodeStatus.FAILURE, NodeStatus.SUCCESS
    tree = tree_with([F, F, F, F, F, S], warn_period=5.0)
    with caplog.at_level(logging.WARNING, logger="robot_tasks.tasks.pyramid"):
        statuses = [tree.tick_exactly_once() for _ in range(6)]
    assert statuses == [NodeStatus.RUNNING] * 5 + [S]
    warnings = [r.getMessage() for r in caplog.records]
    assert len(warnings) == 2 and "the test has not succeeded 6 s after its first failure (3 failed" in warnings[0]


def test_no_warnings_with_period_zero_and_gives_up_after_max_attempts(monkeypatch, caplog):
    monkeypatch.setattr(keep_trying.time, "monotonic", iter(range(0, 100, 10)).__next__)
    tree = tree_with([NodeStatus.FAILURE] * 3, warn_period=0, max_attempts=3)
    with caplog.at_level(logging.WARNING, logger="robot_tasks.tasks.pyramid"):
        statuses = [tree.tick_exactly_once() for _ in range(3)]
    assert statuses == [NodeStatus.RUNNING, NodeStatus.RUNNING, NodeStatus.FAILURE]
    # the node's full path: an unnamed node's is BT.CPP's `KeepTrying::<uid>`
    assert [r.getMessage() for r in caplog.records] == ["KeepTrying::1: the test failed 3 times; giving up"]
