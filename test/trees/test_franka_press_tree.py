"""trees/franka_press.xml as a file: it builds with the real ROS leaves, and the task's
sequence — trajectory approach, guarded osc touch, 10 N hybrid press over three in-plane
poses, lift off, switch back, trajectory retract — is in the XML, not in code."""
from __future__ import annotations

from pathlib import Path

from defusedxml import ElementTree

from robot_tasks.bt import BehaviorTreeFactory
from robot_tasks.ros.leaves import register_ros_nodes

TREE = Path(__file__).resolve().parents[2] / "trees" / "franka_press.xml"


def moves():
    sequence = ElementTree.parse(TREE).getroot().find("BehaviorTree/Sequence")
    return [(el.tag, el.attrib) for el in sequence]


def test_the_tree_builds_with_the_ros_leaves():
    factory = BehaviorTreeFactory()
    register_ros_nodes(factory, None)            # validation: leaves built, never ticked
    tree = factory.create_tree_from_file(TREE)
    assert [n.name for n in tree.nodes if n.registration_id in ("CompliantMove", "SwitchController",
                                                               "MoveToPose")] == [
        "approach", "touch", "press", "slide_1", "slide_2", "slide_3", "lift_off", "to_trajectory", "retract"]


def test_the_sequence_shows_which_controller_does_what():
    steps = moves()
    kinds = [(tag, a.get("controller", a.get("activate", ""))) for tag, a in steps]
    assert kinds == [("MoveToPose", ""), ("CompliantMove", "osc"), ("CompliantMove", "hybrid_press"),
                     ("CompliantMove", "hybrid_press"), ("CompliantMove", "hybrid_press"),
                     ("CompliantMove", "hybrid_press"), ("CompliantMove", "osc"),
                     ("SwitchController", "joint_trajectory_controller"), ("MoveToPose", "")]
    switch = next(a for tag, a in steps if tag == "SwitchController")
    assert switch["deactivate"] == "osc", "one request hands the arm over: osc off, the trajectory controller on"
    compliant = [a for tag, a in steps if tag == "CompliantMove"]
    assert all(a["frame"] == "wall" for a in compliant)
    touch = compliant[0]
    assert float(touch["stop_force"]) > 0 and float(touch.get("force", 0)) == 0, "a guarded touch, no force"
    presses = [a for a in compliant if a["controller"] == "hybrid_press"]
    assert {float(a["force"]) for a in presses} == {10.0}
    targets = [tuple(float(v) for v in a["pose"].split(";")[:2]) for a in presses[1:]]
    assert targets == [(0.05, 0.0), (0.0, 0.06), (-0.04, -0.04)]
    assert float(compliant[-1]["pose"].split(";")[2]) < 0, "lift_off ends off the wall (z < 0)"
