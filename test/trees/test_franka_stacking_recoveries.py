"""trees/franka_stacking.xml's three guards, run with every leaf mocked (no ROS, no sim).

The base mocks (mocks/franka_stacking.json) make one cube's stacking succeed: the
motions take a tick each (async), SelectNextCube decides red_cube/stack, MarkStacked
counts `placed`, StackComplete is `placed >= 1`. Each test then scripts one guard to
trip once, by counting its checks, and asserts the branch the tree routes it to:

- pickup resync: CubeStillInPlace fails while pre_grasp runs -> the ReactiveSequence
  halts the motion and RetryUntilSuccessful restarts the pickup inside PickCube (no
  new decision);
- drop detection: HoldingCube fails while the arm carries -> drop_recovery opens the
  gripper and fails the transfer; with the hand empty, let_go_after_failed_carry has
  nothing to return, and decide_loop decides again (a second SelectNextCube);
- stack validity: StackIntact fails after the lift -> restack_recovery marks the
  stack, returns the held cube (ReturnHeldCube) and fails the transfer; decide again.
"""
from __future__ import annotations

from pathlib import Path

from robot_tasks.bt import NodeStatus
from robot_tasks.testing.tree_mocks import run_tree

HERE = Path(__file__).resolve().parent
TREE = HERE.parents[1] / "trees" / "franka_stacking.xml"
BASE = HERE / "mocks" / "franka_stacking.json"
S, F = NodeStatus.SUCCESS, NodeStatus.FAILURE


def fails_once(counter: str, at: int) -> dict:
    return {"return_status_script": f"{counter} += 1; {counter} == {at} ? FAILURE : SUCCESS"}


def test_undisturbed_run_stacks_once_and_takes_no_recovery():
    run = run_tree(TREE, BASE, tick_period_s=1.0)
    assert run.status is S
    assert run.count("SelectNextCube") == 1 and run.count("MarkStacked", S) == 1
    for recovery in ("drop_recovery", "restack_recovery", "let_go_after_failed_carry", "clear_view"):
        assert recovery not in run.visited
    assert run.statuses("pickup_resync") == [S] * run.count("pickup_resync")


def test_a_cube_that_moved_during_approach_restarts_the_pickup():
    run = run_tree(TREE, [BASE, {"CubeStillInPlace": fails_once("resync_checks", 2)}], tick_period_s=1.0)
    assert run.status is S
    assert run.statuses("pickup_resync")[:2] == [S, F]
    assert run.halted("pre_grasp") == 1                      # the running motion was halted
    assert run.count("ComputePickTargets", S) == 2           # fresh targets for the restart
    assert run.statuses("pickup_resync_restart") == [NodeStatus.RUNNING, S]
    assert run.count("SelectNextCube") == 1                  # handled inside PickCube
    assert "drop_recovery" not in run.visited and "restack_recovery" not in run.visited


def test_a_dropped_cube_is_abandoned_and_picked_again():
    run = run_tree(TREE, [BASE, {"HoldingCube": fails_once("holding_checks", 3)}], tick_period_s=1.0)
    assert run.status is S
    assert run.statuses("drop_recovery") == [NodeStatus.RUNNING, F]
    assert run.count("AbandonTransfer", S) == 1 and run.count("open_after_drop", S) == 1
    assert run.statuses("transfer_abandoned") == [F]
    assert run.halted("transport") == 1                      # the carry in progress was stopped
    assert run.statuses("cube_in_hand") == [F]               # hand empty: nothing to put back
    assert "return_held_cube" not in run.visited and "restack_recovery" not in run.visited
    assert run.count("SelectNextCube") == 2                  # decide again, then stack it
    assert run.count("MarkStacked", S) == 1


def test_a_knocked_stack_returns_the_held_cube_and_restacks():
    run = run_tree(TREE, [BASE, {"StackIntact": fails_once("intact_checks", 2)}], tick_period_s=1.0)
    assert run.status is S
    assert run.statuses("restack_recovery") == [NodeStatus.RUNNING, F]
    assert run.count("MarkDisplaced", S) == 1
    assert run.statuses("return_held_cube") == [NodeStatus.RUNNING, S]
    assert run.count("MarkReturned", S) == 1 and run.statuses("transfer_interrupted") == [F]
    assert run.count("lift", S) == 2 and run.halted("transport") == 0   # tripped at check_after_lift
    assert "drop_recovery" not in run.visited
    assert run.count("SelectNextCube") == 2 and run.count("MarkStacked", S) == 1
