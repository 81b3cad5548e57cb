"""trees/ur10_palletizing.xml routes a bin by `needs_flip`, run with every leaf mocked.

mocks/ur10_palletizing.json mocks the ROS leaves and the task leaves: LocateBinAtPickup
writes `needs_flip` from the blackboard entry `upside_down` (the decision perception
would make), and PlacementCompletesStack ends the loop after one bin (`slot_index >= 1`),
so each run is one pass of bin_loop through IfThenElse route_by_orientation.
"""
from __future__ import annotations

from pathlib import Path

from robot_tasks.bt import NodeStatus
from robot_tasks.testing.tree_mocks import run_tree

HERE = Path(__file__).resolve().parent
TREE = HERE.parents[1] / "trees" / "ur10_palletizing.xml"
MOCKS = HERE / "mocks" / "ur10_palletizing.json"
S, F = NodeStatus.SUCCESS, NodeStatus.FAILURE


def test_an_upside_down_bin_goes_through_the_flip_station_then_the_pallet():
    run = run_tree(TREE, MOCKS, blackboard={"upside_down": True}, tick_period_s=1.0)
    assert run.status is S
    assert run.statuses("needs_flip") == [S]
    assert run.visited.index("flipping") < run.visited.index("placing")
    assert run.count("lay_on_side", S) == 1 and run.count("regrip", S) == 1   # both quarter turns
    assert run.blackboard.get("slot_index") == 1


def test_an_upright_bin_goes_straight_to_the_pallet():
    run = run_tree(TREE, MOCKS, blackboard={"upside_down": False}, tick_period_s=1.0)
    assert run.status is S
    assert run.statuses("needs_flip") == [F]
    assert "flipping" not in run.visited and "flip_then_place" not in run.visited
    assert run.count("placing", S) == 1 and run.blackboard.get("slot_index") == 1


def test_two_bins_first_upside_down_then_upright():
    """Two passes: LocateBinAtPickup decides per bin (the first one is upside down)."""
    run = run_tree(TREE, [MOCKS, {"LocateBinAtPickup": {"return_status": "SUCCESS",
                                                        "post_script": "needs_flip := slot_index == 0"},
                                  "PlacementCompletesStack": {"return_status_script":
                                                              "slot_index >= 2 ? SUCCESS : FAILURE"}}],
                   blackboard={"upside_down": False}, tick_period_s=1.0)
    assert run.status is S
    assert run.statuses("needs_flip") == [S, F]
    assert run.count("flipping", S) == 1 and run.count("placing", S) == 2
    assert run.blackboard.get("slot_index") == 2


def test_a_bin_that_moved_before_the_reach_is_located_again():
    """Pickup resync: BinStillAtPickup fails on the way above the bin (it moved or tipped);
    the bin is located again and the reach goes to the new grip, once. (The first locate is
    bin_arrived, the belt still running.)"""
    run = run_tree(TREE, [MOCKS, {"LocateBinAtPickup": {"return_status": "SUCCESS",
                                                        "post_script": "needs_flip := false; locates += 1"},
                                  "pick_resync": {"return_status_script": "locates < 3 ? FAILURE : SUCCESS"}}],
                   blackboard={"upside_down": False, "locates": 0}, tick_period_s=1.0)
    assert run.status is S
    assert run.count("pick_resync", F) == 1 and run.count("locate_bin", S) == 2
    assert run.count("above_bin", S) == 1 and run.count("reach_to_pick", S) == 1
    assert run.blackboard.get("slot_index") == 1
