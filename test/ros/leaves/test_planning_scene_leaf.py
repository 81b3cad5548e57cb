"""SetPlanningObstacles: which detections become boxes, their margin, and its failures.
(Its effect on PLANNED goals over DDS: test/nodes/arm_server/test_planning_obstacles.py.)"""
from __future__ import annotations

import math
import time

import pytest

from robot_tasks.bt import BehaviorTreeFactory, NodeStatus
from robot_tasks.ros.leaves import register_ros_nodes
from robot_tasks.ros.leaves.planning_scene import obstacle_message

BOWL = {"label": "bowl", "id": "bowl_1", "size": {"x": 0.16, "y": 0.15, "z": 0.06},
        "pose": {"position": {"x": 0.6, "y": 0.2, "z": 0.66},
                 "orientation": {"x": 0.0, "y": 0.0, "z": 0.0, "w": 1.0}}}
BANANA = dict(BOWL, label="banana", id="", size={"x": 0.18, "y": 0.04, "z": 0.03})


def test_only_the_listed_labels_become_boxes_grown_by_the_margin():
    msg = obstacle_message([BANANA, BOWL], ["bowl"], 0.02)
    assert msg.header.frame_id == "world"
    assert [o.name for o in msg.objects] == ["bowl_1"]
    size = msg.objects[0].size
    assert (size.x, size.y, size.z) == pytest.approx((0.20, 0.19, 0.10))
    assert msg.objects[0].pose.position.x == pytest.approx(0.6)
    assert [o.name for o in obstacle_message([BANANA, BOWL], ["banana", "bowl"], 0.0).objects] == \
        ["banana", "bowl_1"]                              # no id: named by the label
    assert obstacle_message([BANANA, BOWL], [], 0.02).objects == []   # no labels: clears


@pytest.mark.parametrize("objects, margin, words", [
    ([BOWL], -0.01, "margin"),
    ([BOWL], math.nan, "margin"),
    ([dict(BOWL, size={"x": 0.1})], 0.0, "'bowl_1'"),
    ([dict(BOWL, pose={"position": {"x": math.nan, "y": 0, "z": 0}})], 0.0, "finite"),
    (["bowl"], 0.0, "objects[0]"),
])
def test_bad_input_is_a_clear_error(objects, margin, words):
    with pytest.raises(ValueError, match=words.replace("[", r"\[").replace("]", r"\]")):
        obstacle_message(objects, ["bowl"], margin)


@pytest.mark.ros
@pytest.mark.timeout(60)
def test_fails_when_no_arm_server_listens(ros_node):
    factory = BehaviorTreeFactory()
    register_ros_nodes(factory, ros_node.node)
    tree = factory.create_tree_from_text(
        '<root BTCPP_format="4"><BehaviorTree ID="T"><SetPlanningObstacles objects="{objects}" '
        'labels="bowl" topic="/nobody_listens/planning_obstacles" timeout="300" count="{count}"/>'
        '</BehaviorTree></root>')
    tree.root_blackboard.set("objects", [BOWL])
    began = time.monotonic()
    status = tree.tick_once()
    while status == NodeStatus.RUNNING and time.monotonic() - began < 5.0:
        time.sleep(0.02)
        status = tree.tick_once()
    assert status == NodeStatus.FAILURE
    assert 0.25 < time.monotonic() - began < 3.0
    assert tree.root_blackboard.get("count") == 1
