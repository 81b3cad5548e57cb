"""Helpers for tests of a tree file under trees/: a factory with the task and ROS leaves
registered, and a stand-in ROS node that records what the leaves subscribe to."""
from __future__ import annotations

from robot_tasks.bt import BehaviorTreeFactory
from robot_tasks.ros.leaves import register_ros_nodes
from robot_tasks.tasks import register_nodes

PORT_TAGS = {"input_port": "INPUT", "output_port": "OUTPUT", "inout_port": "INOUT"}


class FakeRosNode:
    """Records what the leaves subscribe to when the tree is created; nothing else is used."""

    def __init__(self):
        self.subscriptions = []

    def create_subscription(self, msg_type, topic, callback, qos):
        self.subscriptions.append((topic, msg_type.__name__, qos.durability.name))


def full_factory(ros_node=None):
    factory = BehaviorTreeFactory()
    register_nodes(factory, ros_node)
    register_ros_nodes(factory, ros_node if ros_node is not None else FakeRosNode())
    return factory


def model_mismatches(tree_path) -> tuple[set, list]:
    """(the custom node IDs a tree file uses, one line per node whose TreeNodesModel entry
    is missing or lists other ports than the code declares)."""
    from defusedxml import ElementTree

    factory = full_factory()
    xml = ElementTree.parse(tree_path).getroot()
    model = {el.get("ID"): el for el in xml.find("TreeNodesModel")}
    used = {el.tag for bt in xml.findall("BehaviorTree") for el in bt.iter()} - {"BehaviorTree", "SubTree"}
    custom = used - set(factory.builtin_nodes)
    problems = []
    for node_id in sorted(custom):
        if node_id not in model:
            problems.append(f"{node_id}: not in the TreeNodesModel")
            continue
        declared = {(p.get("name"), PORT_TAGS[p.tag]) for p in model[node_id] if p.tag in PORT_TAGS}
        actual = {(name, info.direction.name) for name, info in factory.manifests[node_id].ports.items()}
        if declared != actual:
            problems.append(f"{node_id}: model ports differ from the code; run "
                            f"robot-tasks tree model {tree_path}")
    return custom, problems
