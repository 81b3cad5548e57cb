"""trees/banana_bowl.xml as a file: its model matches the code, it validates, and each phase
is the motion primitive the expert prescribes."""
from __future__ import annotations

from pathlib import Path

from defusedxml import ElementTree
from tree_files import model_mismatches

TREE = Path(__file__).resolve().parents[3] / "trees" / "banana_bowl.xml"


def test_model_lists_every_custom_node_with_the_ports_the_code_declares():
    custom, problems = model_mismatches(TREE)
    assert {"LoadPickPlaceContract", "PlanPickAndPlace", "MoveToPose", "GripperCommand"} <= custom
    assert problems == []


def test_validate_command_accepts_the_file():
    from robot_tasks.commands.tree import validate_file

    errors, nodes = validate_file(str(TREE), ["robot_tasks.tasks"])
    assert errors == [] and nodes >= 15


def test_settle_then_seven_phases_each_with_its_primitive():
    main = ElementTree.parse(TREE).getroot().find("BehaviorTree[@ID='BananaBowl']/Sequence")
    names = [el.get("name") for el in main.iter() if el is not main]
    assert names.index("settle") < names.index("pregrasp")
    phases = {el.get("name"): el for el in main.iter() if el.tag in ("MoveToPose", "GripperCommand")}
    assert [n for n in names if n in phases and n not in ("open_gripper", "reopen", "back_up", "reopen_empty")] == \
        ["pregrasp", "descend", "grasp", "lift", "transport", "hold_check", "release", "retreat"]
    assert phases["pregrasp"].get("motion") == "planned"
    assert phases["descend"].get("motion") == "cartesian"
    assert phases["grasp"].get("mode") == "force_hold"
    for carry in ("lift", "transport"):
        assert phases[carry].get("motion") == "bounded"
        assert phases[carry].get("max_dq") == "{max_dq}" and phases[carry].get("min_steps") == "{min_steps}"
    assert names[-1] == "settle_at_end"
    assert main.find("RetryUntilSuccessful[@name='release_retry']/GripperCommand").get("name") == "release"
    # a grasp that holds nothing backs off (open, up to the pregrasp, out of the camera's view)
    # and the pick starts again
    pick = main.find("RetryUntilSuccessful[@name='pick_retry']/Sequence[@name='pick']")
    fallback = pick.find("Fallback[@name='grasp_or_back_off']")
    assert [el.get("name") for el in fallback] == ["grasp_around_it", "back_off"]
    grasp, check = list(fallback.find("Sequence[@name='grasp_around_it']"))
    assert grasp.get("name") == "grasp" and grasp.get("measured_width") == "{held_width}"
    assert check.tag == "ScriptCondition" and check.get("code") == "held_width <= max_held_width"
    assert [el.get("name") for el in fallback.find("Sequence[@name='back_off']")] == \
        ["reopen", "back_up", "clear_view", "pick_again"]
    assert fallback.find("Sequence[@name='back_off']/MoveToPose").get("pose") == "{pregrasp_pose}"
    assert pick.find("RetryUntilSuccessful[@name='look_retry']") is not None
    # the carry is inside the pick: an object that slipped out on the way is let go of and picked again
    assert [el.get("name") for el in pick][-3:] == ["lift", "transport", "held_or_pick_again"]
    check, slipped = list(pick.find("Fallback[@name='held_or_pick_again']"))
    assert (check.get("name"), check.get("mode"), check.get("require_object")) == ("hold_check", "force_hold", "true")
    assert [el.get("name") for el in slipped] == ["reopen_empty", "home_to_look", "let_it_come_to_rest",
                                                  "pick_it_again"]
    assert slipped[1].get("ID") == fallback.find("Sequence[@name='back_off']/SubTree").get("ID") == \
        "BananaBowlOutOfView"
    # yaw and box come from perception: the planner reads the DetectObjects output
    plan = main.find(".//PlanPickAndPlace")
    assert plan.get("detections") == main.find(".//DetectObjects").get("objects") == "{detections}"
