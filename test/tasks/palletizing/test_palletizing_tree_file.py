"""trees/ur10_palletizing.xml as a file: Groot2-openable, its model matches the code, it
instantiates with the real ROS leaves, and the task's structure is tree structure."""
from __future__ import annotations

from pathlib import Path

from defusedxml import ElementTree
from tree_files import FakeRosNode, model_mismatches
from tree_files import full_factory as factory

TREE = Path(__file__).resolve().parents[3] / "trees" / "ur10_palletizing.xml"


def trees():
    return {bt.get("ID"): bt for bt in ElementTree.parse(TREE).getroot().findall("BehaviorTree")}


def test_model_lists_every_custom_node_with_the_ports_the_code_declares():
    custom, problems = model_mismatches(TREE)
    assert {"LocateBinAtPickup", "SlotFree", "PlacementCompletesStack", "SetDigitalOutput"} <= custom
    assert problems == []


def test_instantiates_and_reads_only_perception_and_the_vacuum_switch():
    node = FakeRosNode()
    factory(node).create_tree_from_file(TREE)
    assert set(node.subscriptions) == {("detections", "DetectedObjectArray", "VOLATILE"),
                                       ("ur10/io_and_status_controller/io_states", "IOStates", "VOLATILE")}
    vacuum_checks = [el for el in ElementTree.parse(TREE).getroot().iter("TopicCondition")]
    assert vacuum_checks and all(el.get("field") == "digital_in_states.16.state" for el in vacuum_checks)


def test_validate_command_accepts_the_file():
    from robot_tasks.commands.tree import validate_file

    errors, nodes = validate_file(str(TREE), ["robot_tasks.tasks"])
    assert errors == [] and nodes > 100


def test_routing_loop_slots_and_guards_are_tree_structure():
    t = trees()
    main = t["Ur10Palletizing"]
    loop = main.find(".//RetryUntilSuccessful[@name='bin_loop']/Fallback")
    assert loop[0].tag == "PlacementCompletesStack"                 # the loop ends on the condition
    route = main.find(".//IfThenElse[@name='route_by_orientation']")
    assert route[0].tag == "ScriptCondition" and "needs_flip" in route[0].get("code")
    assert [s.get("ID") for s in route[1]] == ["FlipBin", "PlaceBin"] and route[2].get("ID") == "PlaceBin"
    # needs_flip is LocateBinAtPickup's output port
    assert all(el.get("needs_flip") == "{needs_flip}" for el in t["PickBin"].iter("LocateBinAtPickup"))
    # the belt is paused before the reach and resumed after the lift: its PLC's run input on DO 0
    pick = [el.get("name") for el in t["PickBin"].find("Sequence")]
    assert pick.index("pause_conveyor") < pick.index("reach_to_pick") < pick.index("suction_on") \
        < pick.index("lift_guarded") < pick.index("resume_conveyor")
    # slot_index: set and advanced by Scripts the XML shows
    scripts = [el.get("code") for bt in t.values() for el in bt.iter("Script")]
    assert any(c.startswith("slot_index := 0") for c in scripts) and scripts.count("slot_index += 1") == 2
    # no bin for a minute ends the loop (belt_empty), and the tree then fails on pallet_full
    assert loop[1].tag == "ScriptCondition" and "belt_empty" in loop[1].get("code")
    wait = t["PickBin"].find(".//Fallback[@name='bin_comes_or_belt_empty']")
    assert wait[0].get("name") == "wait_for_bin" and wait[1].find("Script").get("code") == "belt_empty := true"
    # a bin set back on the belt is left with the cup clear of it (else the camera cannot see it)
    # ... and out of the camera's view (seed 15 once waited a minute with the arm above it)
    back = [el.get("name") for el in main.find(".//Sequence[@name='return_bin_to_belt']")]
    assert back[-3:] == ["release_on_belt", "return_clear_of_bin", "home_out_of_view"]
    # a suction grip is confirmed on the attached topic before a guard reads that topic
    # (the topic can lag the action's answer by a message: a guard once took it for a lost bin)
    for bt, grip in (("PickBin", "suction_on"), ("FlipBin", "regrip")):
        steps = list(t[bt].find("Sequence"))
        at = [el.get("name") for el in steps].index(grip)
        assert steps[at + 1].get("ID") == "AttachmentConfirmed" and steps[at + 2].tag == "ReactiveSequence"
    confirm = t["AttachmentConfirmed"].find("RetryUntilSuccessful/Fallback")
    assert confirm[0].get("ID") == "BinAttached" and confirm[1].find("RosSleep") is not None
    after = list(main.find("Sequence"))
    assert after[-1].tag == "PlacementCompletesStack" and after[-1].get("name") == "pallet_full"
    # every carry is guarded by the attached signal, left of the motion
    for bt in ("PickBin", "FlipBin", "PlaceBin"):
        for guarded in t[bt].iter("ReactiveSequence"):
            if guarded.get("name") == "approach_guarded":   # nothing carried yet: the pickup resync
                continue
            assert guarded[0].tag == "SubTree" and guarded[0].get("ID") == "BinAttached"
    # pickup resync: the bin is re-checked, left of the move above it and again before the reach;
    # a bin that moved is located again (the retry wraps the locate)
    approach = t["PickBin"].find(".//ReactiveSequence[@name='approach_guarded']")
    assert [el.get("ID") or el.tag for el in approach] == ["ObserveBins", "BinStillAtPickup", "MoveToPose"]
    resync = t["PickBin"].find(".//RetryUntilSuccessful[@name='pick_resync_restart']/Sequence")
    assert resync[0].get("name") == "locate_paused_bin" and resync[-1].tag == "BinStillAtPickup"
    steps = [el.get("name") for el in t["PickBin"].find("Sequence")]
    assert steps[steps.index("pick_resync_restart") + 1] == "reach_to_pick"
    flip = [el.get("name") for el in t["FlipBin"].iter() if el.tag in ("MoveToPose", "GripperCommand")]
    assert flip.index("lay_on_side") < flip.index("release_on_jig") < flip.index("into_bin") < flip.index("regrip")
