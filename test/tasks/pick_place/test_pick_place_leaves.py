"""The pick-and-place leaves through the real engine: ports in, status and outputs out.

The target is the `target` entry ('x;y', the goal's payload); the cube only ever comes
from `detections` (dicts as DetectObjects writes them, or a whole DetectedObjectArray)."""
from __future__ import annotations

import logging

import pytest

from robot_tasks.bt import BehaviorTreeError, BehaviorTreeFactory, NodeStatus
from robot_tasks.tasks import register_nodes
from robot_tasks.tasks.pick_place import plan

REST_Z = 0.65
POSES = ("pregrasp_pose", "grasp_pose", "lift_pose", "transport_pose", "lower_pose", "retract_pose")


def det(x, y, z=REST_Z, label="red_cube"):
    return {"label": label, "pose": {"position": {"x": x, "y": y, "z": z}, "orientation": {"w": 1.0}},
            "confidence": 0.9}


def tree_of(body: str, **entries):
    factory = BehaviorTreeFactory()
    register_nodes(factory)              # every task's leaves, as the tree executor loads them
    tree = factory.create_tree_from_text(f'<root BTCPP_format="4"><BehaviorTree ID="T">{body}</BehaviorTree></root>')
    for key, value in entries.items():
        tree.root_blackboard.set(key, value)
    return tree


PICK_PLACE_POSES = ('<PickPlacePoses detections="{d}" cube="red_cube" target="{target}" first_seen="{first_seen}" '
                    + " ".join(f'{name}="{{{name}}}"' for name in POSES) + "/>")


def test_pick_place_poses_from_the_cube_as_seen_and_the_target(caplog):
    caplog.set_level(logging.INFO, logger="robot_tasks.tasks.pick_place")
    tree = tree_of(PICK_PLACE_POSES, d=[det(0.4, 0.2), det(0.6, 0.0, label="blue_cube")], target="0.55;-0.1")
    assert tree.tick_once() is NodeStatus.SUCCESS
    board = tree.root_blackboard
    assert board.get("first_seen") == (0.4, 0.2, REST_Z)
    grasp, lower = board.get("grasp_pose"), board.get("lower_pose")
    assert (grasp["x"], grasp["y"], grasp["z"]) == pytest.approx((0.4, 0.2, REST_Z))
    assert (lower["x"], lower["y"], lower["z"]) == pytest.approx((0.55, -0.1, REST_Z + plan.PLACE_GAP))
    assert all(board.get(name)["frame_id"] == "world" for name in POSES)
    assert "pick: red_cube at (0.400, 0.200) -> target (0.550, -0.100)" in caplog.text


def test_pick_place_poses_fail_when_the_cube_is_not_seen():
    tree = tree_of(PICK_PLACE_POSES, d=[det(0.6, 0.0, label="blue_cube")], target="0.55;-0.1")
    assert tree.tick_once() is NodeStatus.FAILURE
    assert "grasp_pose" not in tree.root_blackboard and "first_seen" not in tree.root_blackboard


def test_a_missing_or_bad_target_names_the_node_and_the_port():
    tree = tree_of(PICK_PLACE_POSES, d=[det(0.4, 0.2)], target="0.55")
    with pytest.raises(BehaviorTreeError, match=r"node '.*PickPlacePoses.*': port \[target\]: target must be 'x;y'"):
        tree.tick_once()
    tree = tree_of(PICK_PLACE_POSES, d=[det(0.4, 0.2)])                 # no payload at all
    with pytest.raises(BehaviorTreeError, match=r"\[target\]"):
        tree.tick_once()


def test_pickup_resync_fails_when_the_cube_moved_more_than_the_threshold(caplog):
    caplog.set_level(logging.INFO, logger="robot_tasks.tasks.pick_place")
    body = '<CubeStillWhereSeen name="pickup_resync" detections="{d}" cube="red_cube" first_seen="{fs}" threshold="0.05"/>'
    assert tree_of(body, d=[det(0.43, 0.2)], fs=(0.4, 0.2, REST_Z)).tick_once() is NodeStatus.SUCCESS
    assert tree_of(body, d=[], fs=(0.4, 0.2, REST_Z)).tick_once() is NodeStatus.SUCCESS    # hidden: no evidence
    moved = {"header": {"stamp": {"sec": 3, "nanosec": 0}}, "objects": [det(0.52, 0.2)]}   # a whole array
    assert tree_of(body, d=moved, fs=(0.4, 0.2, REST_Z)).tick_once() is NodeStatus.FAILURE
    assert "pickup_resync: red_cube moved 0.120 m since its pickup started" in caplog.text


def test_cube_on_target_within_its_tolerance(caplog):
    caplog.set_level(logging.INFO, logger="robot_tasks.tasks.pick_place")
    body = '<CubeOnTarget detections="{d}" cube="red_cube" target="{target}" tolerance="0.015"/>'
    assert tree_of(body, d=[det(0.51, -0.1)], target="0.5;-0.1").tick_once() is NodeStatus.SUCCESS
    assert tree_of(body, d=[det(0.52, -0.1)], target="0.5;-0.1").tick_once() is NodeStatus.FAILURE
    assert tree_of(body, d=[], target="0.5;-0.1").tick_once() is NodeStatus.FAILURE
    assert "off_target: red_cube 0.020 m from the target" in caplog.text


def test_malformed_detections_name_the_node_and_the_port():
    body = '<CubeOnTarget name="check" detections="{d}" target="0.5;0"/>'
    with pytest.raises(BehaviorTreeError, match=r"node '.*check.*': port \[detections\]"):
        tree_of(body, d="red_cube").tick_once()
