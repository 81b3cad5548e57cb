"""trees/franka_pyramid.xml as a file: Groot2's model section is current, the two robot
instances differ only in the robot's own parameters, and the goals the demo grades are
the ones the tree builds on."""
from __future__ import annotations

from defusedxml import ElementTree
from paths import REPO

from robot_tasks.commands._tree_model import model_xml
from robot_tasks.tasks.pyramid.episode import FLAGS, GOALS, RECOVERIES

TREE = REPO / "trees" / "franka_pyramid.xml"


def instances(tree_id="FrankaPyramid"):
    root = ElementTree.parse(TREE).getroot()
    main = next(bt for bt in root.findall("BehaviorTree") if bt.get("ID") == tree_id)
    return [el for el in main.iter("SubTree") if el.get("ID") == "PyramidRobot"]


def test_the_model_section_is_what_the_code_declares():
    text = TREE.read_text()
    assert model_xml(text) in text, "run: robot-tasks tree model trees/franka_pyramid.xml"


def test_both_instances_share_the_tree_and_differ_only_in_robot_parameters():
    panda_1, panda_2 = instances()
    assert set(panda_1.attrib) == set(panda_2.attrib)
    differ = {k for k in panda_1.attrib if panda_1.get(k) != panda_2.get(k)}
    assert differ == set(panda_1.attrib) - {"ID", "stack_size"}
    for element in (panda_1, panda_2):
        robot = element.get("robot")
        assert element.get("name") == robot
        for port in ("move_action", "gripper_action", "joint_states_topic", "description_topic"):
            assert element.get(port).startswith(f"{robot}/"), port
        assert element.get("placed") == f"{{placed_{robot}}}" and element.get("done") == f"{{done_{robot}}}"
    assert sorted(panda_1.get("walk").split(";")) == sorted(panda_2.get("walk").split(";")) == list("012345")


def test_the_demo_grades_the_goals_the_tree_stacks_on():
    for element in instances() + instances("FrankaPyramidSolo"):
        goal = tuple(float(v) for v in element.get("goal").split(";"))
        assert goal == GOALS[element.get("robot")]


def test_every_recovery_the_demo_counts_is_a_node_of_the_tree():
    names = {el.get("name") for el in ElementTree.parse(TREE).getroot().iter() if el.get("name")}
    assert {name for name, _status in RECOVERIES} <= names
    assert set(FLAGS) == {el.get("name") for el in ElementTree.parse(TREE).getroot().iter("Script")
                          if el.get("code") == "needs_recovery := true"}
