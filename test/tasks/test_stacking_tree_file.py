"""trees/franka_stacking.xml as a file: Groot2-openable, its model matches the code,
and it instantiates with the real ROS leaves (reading the topics we expect)."""
from __future__ import annotations

from pathlib import Path

from defusedxml import ElementTree
from tree_files import PORT_TAGS, FakeRosNode, full_factory

TREE = Path(__file__).resolve().parents[2] / "trees" / "franka_stacking.xml"
MODEL_TAGS = {"Action", "Condition", "Control", "Decorator", "SubTree"}


def root():
    return ElementTree.parse(TREE).getroot()


def used_ids(xml_root):
    return {el.tag for bt in xml_root.findall("BehaviorTree") for el in bt.iter() if el.tag != "BehaviorTree"}


def test_groot2_shape():
    xml = root()
    assert xml.tag == "root" and xml.get("BTCPP_format") == "4"
    assert xml.get("main_tree_to_execute") == "FrankaStacking"
    trees = xml.findall("BehaviorTree")
    assert all(len(list(bt)) == 1 for bt in trees)
    assert len(xml.findall("TreeNodesModel")) == 1
    defined = {bt.get("ID") for bt in trees}
    referenced = {el.get("ID") for bt in trees for el in bt.iter("SubTree")}
    assert referenced <= defined and defined - referenced == {"FrankaStacking"}


def test_model_lists_every_custom_node_with_the_ports_the_code_declares():
    factory = full_factory()
    xml = root()
    model = {el.get("ID"): el for el in xml.find("TreeNodesModel") if el.tag in MODEL_TAGS}
    custom = used_ids(xml) - set(factory.builtin_nodes) - {"SubTree"}
    assert custom, "the tree uses custom leaves"
    missing = custom - set(model)
    assert not missing, f"TreeNodesModel lacks {missing}"
    for node_id in custom:
        manifest = factory.manifests[node_id]
        element = model[node_id]
        assert element.tag == manifest.type.value, node_id
        declared = {(p.get("name"), PORT_TAGS[p.tag]) for p in element if p.tag in PORT_TAGS}
        actual = {(name, info.direction.name) for name, info in manifest.ports.items()}
        assert declared == actual, f"{node_id}: model ports differ from the code; run robot-tasks tree model {TREE}"


def test_every_port_used_in_the_tree_is_declared():
    factory = full_factory()
    for bt in root().findall("BehaviorTree"):
        for el in bt.iter():
            if el.tag in factory.manifests and el.tag != "SubTree":
                ports = set(factory.manifests[el.tag].ports)
                unknown = set(el.attrib) - ports - {"name"}
                assert not unknown, f"{el.tag} '{el.get('name')}' uses undeclared ports {unknown}"


def test_instantiates_with_the_real_ros_leaves_and_reads_the_expected_topics():
    node = FakeRosNode()
    tree = full_factory(node).create_tree_from_file(TREE)
    ids = {n.registration_id for n in tree.nodes}
    assert {"MoveToPose", "GripperCommand", "DetectObjects", "TopicToBlackboard",
            "ToolPoseFromJointStates", "ReactiveSequence", "RetryUntilSuccessful"} <= ids
    topics = set(node.subscriptions)
    assert topics == {("detections", "DetectedObjectArray", "VOLATILE"),
                      ("panda/joint_states", "JointState", "VOLATILE"),
                      ("panda/robot_description", "String", "TRANSIENT_LOCAL")}


def test_validate_command_accepts_the_file_with_the_tasks_plugin():
    from robot_tasks.commands.tree import validate_file

    errors, nodes = validate_file(str(TREE), ["robot_tasks.tasks"])
    assert errors == [] and nodes > 50


def test_guards_sit_left_of_the_flow_they_guard():
    """The reactive structure the issue asks for, checked on the XML itself."""
    trees = {bt.get("ID"): bt for bt in root().findall("BehaviorTree")}
    approach = next(el for el in trees["PickCube"].iter("ReactiveSequence"))
    kids = [c.tag for c in approach]
    assert kids.index("CubeStillInPlace") < kids.index("Sequence")
    assert [m.get("name") for m in approach.find("Sequence")] == ["pre_grasp", "approach_any_way"]
    assert [m.get("name") for m in approach.find("Sequence/Fallback")] == ["approach", "approach_joint_space"]
    carry = next(el for el in trees["CarryAndPlace"].iter("ReactiveSequence"))
    drop = [c for c in carry if c.tag == "Fallback"][0]
    assert drop[0].tag == "HoldingCube" and drop.find("Sequence/AbandonTransfer") is not None
    flow = carry.find("Sequence")
    checks = [c.get("name") for c in flow if c.tag == "SubTree" and c.get("ID") == "StackCheck"]
    assert checks == ["check_after_grasp", "check_after_lift", "check_after_transport", "check_after_lower"]
    phases = [el.get("name") for bt in ("PickCube", "CarryAndPlace") for el in trees[bt].iter()
              if el.tag in ("MoveToPose", "GripperCommand") and el.get("name") in
              ("pre_grasp", "approach", "grasp", "lift", "transport", "lower", "release", "retract")]
    assert phases == ["pre_grasp", "approach", "grasp", "lift", "transport", "lower", "release", "retract"]
