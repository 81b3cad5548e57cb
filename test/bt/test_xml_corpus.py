"""A corpus of v4 XML files in the styles found in the wild (test/bt/corpus/):
Groot2-saved (`_uid`, `_fullpath`, `_collapsed`, `_description`, `<Metadata>`, raw
`<`/`&&` in scripts, whitespace before the declaration), Nav2 (PipelineSequence,
RecoveryNode, RoundRobin) and BehaviorTree.ROS2 (explicit `<Action ID=...>` with
action_name/topic_name ports). All files are registered into one factory and the
tree is created with `create_tree("Main")`, as an application loading a folder does."""
from pathlib import Path

import pytest

from robot_tasks.bt import BehaviorTreeFactory, Blackboard, InputPort, NodeStatus, OutputPort
from robot_tasks.bt.nav2 import register_nav2_nodes

CORPUS = Path(__file__).resolve().parent / "corpus"
S, F = NodeStatus.SUCCESS, NodeStatus.FAILURE


class World:
    """The custom leaves the corpus uses, recording what they are asked to do."""

    def __init__(self):
        self.log = []
        self.follow_results = [F]       # the first FollowPath fails: recovery, then retry
        self.grasp_results = [F]        # the first grasp check fails: RetryUntilSuccessful

    def register(self, factory):
        def leaf(registration_id, ports, body, condition=False):
            register = factory.register_simple_condition if condition else factory.register_simple_action
            register(registration_id, body, ports=ports)

        def compute(node):
            goal = node.get_input("goal")
            self.log.append(f"plan {goal} ({node.get_input('planner_id')})")
            node.set_output("path", f"path to {goal}")
            return S

        def follow(node):
            self.log.append(f"follow {node.get_input('path')}")
            return self.follow_results.pop(0) if self.follow_results else S

        def simple(word, port):
            def tick(node):
                self.log.append(f"{word} {node.get_input(port)}")
                return S
            return tick

        def detect(node):
            self.log.append(f"detect {node.get_input('object')} via {node.get_input('action_name')}")
            node.set_output("pose", "pose of " + node.get_input("object"))
            return S

        def grasped(node):
            self.log.append("grasped?")
            return self.grasp_results.pop(0) if self.grasp_results else S

        leaf("ComputePathToPose", [InputPort("goal"), OutputPort("path"), InputPort("planner_id")], compute)
        leaf("FollowPath", [InputPort("path"), InputPort("controller_id")], follow)
        leaf("ClearEntireCostmap", [InputPort("service_name")], simple("clear", "service_name"))
        leaf("Spin", [InputPort("spin_dist", float)], simple("spin", "spin_dist"))
        leaf("Wait", [InputPort("wait_duration", float)], simple("wait", "wait_duration"))
        leaf("DetectObject", [InputPort("action_name", str, default="/detect_objects"), InputPort("object"),
                              OutputPort("pose")], detect)
        leaf("MoveArm", [InputPort("action_name"), InputPort("target")], simple("move to", "target"))
        leaf("IsObjectGrasped", [InputPort("topic_name")], grasped, condition=True)
        leaf("Announce", [InputPort("message", str)], simple("say", "message"))


@pytest.fixture
def factory_and_world():
    factory = BehaviorTreeFactory()
    register_nav2_nodes(factory)
    world = World()
    world.register(factory)
    for path in sorted(CORPUS.glob("*.xml")):
        factory.register_behavior_tree_from_file(path)
    return factory, world


def test_corpus_files_register_together(factory_and_world):
    factory, _ = factory_and_world
    assert sorted(factory.registered_behavior_trees()) == ["Main", "Navigate", "PickObject"]


def test_corpus_main_runs_through_subtrees_from_other_files(factory_and_world):
    factory, world = factory_and_world
    board = Blackboard()
    board.set("kitchen", "kitchen")
    board.set("table", "table")
    tree = factory.create_tree("Main", board)
    assert [s.instance_name for s in tree.subtrees] == ["", "to_kitchen", "pick", "to_table"]
    assert tree.tick_while_running(0) is S
    assert world.log == [
        "plan kitchen (GridBased)", "follow path to kitchen",           # follow fails ...
        "clear local_costmap/clear_entirely_local_costmap",             # ... RoundRobin recovers
        "plan kitchen (GridBased)", "follow path to kitchen",
        "detect mug via /detect_objects",
        "move to pose of mug", "grasped?", "move to pose of mug", "grasped?",
        "plan table (GridBased)", "follow path to table",
        "say wave", "say beep",
    ]
    assert board.get("attempts") == 2 and board.get("picked") == 1


@pytest.mark.parametrize("path", sorted(CORPUS.glob("*.xml")), ids=lambda p: p.name)
def test_each_corpus_file_loads_alone(path):
    factory = BehaviorTreeFactory()
    register_nav2_nodes(factory)
    World().register(factory)
    factory.register_behavior_tree_from_file(path)
    assert factory.registered_behavior_trees()
