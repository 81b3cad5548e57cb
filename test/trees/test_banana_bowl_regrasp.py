"""trees/banana_bowl.xml's regrasp, run with every leaf mocked (no ROS, no sim).

A grasp can end without the object between the fingers: a fingertip stopped on the
object's shoulder (the gripper then reports no object, or a width near fully open). The
tree backs off -- reopen, up to the pregrasp, home out of the camera's view -- and the
pick starts again from a fresh look, at most three times. An object that slips out on the
way is found by the hold check above the bowl: open, home, and the same fresh pick. The
mocks script the grasp's measured width per attempt and the hold check's findings; the
contract's max_held_width is the lemon's 0.074 m.
"""
from __future__ import annotations

from pathlib import Path

from robot_tasks.bt import NodeStatus
from robot_tasks.testing.tree_mocks import run_tree

TREE = Path(__file__).resolve().parents[2] / "trees" / "banana_bowl.xml"
S, F = NodeStatus.SUCCESS, NodeStatus.FAILURE


def mocks(widths: list[float], slips: int = 0) -> dict:
    """Every leaf succeeds; the n-th grasp measures widths[n] (the last one repeats); the
    hold check after the carry finds nothing between the fingers the first `slips` times."""
    pick = " : ".join(f"grasps == {i + 1} ? {w}" for i, w in enumerate(widths[:-1]))
    measured = f"{pick} : {widths[-1]}" if pick else f"{widths[-1]}"
    return {
        "LoadPickPlaceContract": {"return_status": "SUCCESS",
                                  "post_script": "max_held_width := 0.074; grasps := 0; carries := 0"},
        "grasp": {"return_status": "SUCCESS", "post_script": f"grasps += 1; held_width := {measured}"},
        # by name: a rule for the type GripperCommand would also catch the grasp
        "hold_check": {"return_status_script": f"carries += 1; carries > {slips} ? 'SUCCESS' : 'FAILURE'"},
        "open_gripper": "SUCCESS", "reopen": "SUCCESS", "reopen_empty": "SUCCESS", "release": "SUCCESS",
        "DetectObjects": "SUCCESS", "PlanPickAndPlace": "SUCCESS",
        "SetPlanningObstacles": "SUCCESS", "MoveToPose": "SUCCESS", "MoveToJoints": "SUCCESS",
        "Sleep": "SUCCESS",
    }


def test_a_grasp_around_the_object_goes_straight_on():
    run = run_tree(TREE, mocks([0.065]))
    assert run.status is S
    assert run.count("grasp", S) == 1 and "back_off" not in run.visited
    assert run.count("detect", S) == 1


def test_fingers_stopped_on_the_shoulder_back_off_and_the_pick_starts_again():
    run = run_tree(TREE, mocks([0.0799, 0.065]))
    assert run.status is S
    assert run.statuses("closed_around_it") == [F, S]
    for step in ("reopen", "back_up", "clear_view"):
        assert run.count(step, S) == 1, step
    assert run.count("detect", S) == 2 and run.count("pregrasp", S) == 2   # a fresh look, a new approach
    assert run.count("lift", S) == 1


def test_three_failed_grasps_fail_the_tree_before_any_lift():
    run = run_tree(TREE, mocks([0.0799]))
    assert run.status is F
    assert run.count("grasp", S) == 3 and run.count("back_off", F) == 3
    assert "lift" not in run.visited


def test_an_object_that_slipped_out_on_the_way_is_picked_again_before_any_release():
    run = run_tree(TREE, mocks([0.065], slips=1))
    assert run.status is S
    assert run.statuses("hold_check") == [F, S]
    assert run.count("reopen_empty", S) == 1 and run.count("home_to_look", S) == 1
    assert run.count("detect", S) == 2 and run.count("grasp", S) == 2 and run.count("transport", S) == 2
    assert run.count("release", S) == 1 and "back_off" not in run.visited


def test_a_slip_counts_as_one_of_the_three_tries():
    run = run_tree(TREE, mocks([0.0799, 0.065], slips=5))
    assert run.status is F
    assert run.count("back_off", F) == 1 and run.count("slipped", F) == 2
    assert "release" not in run.visited
