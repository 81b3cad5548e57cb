"""ToolPoseFromJointStates: forward kinematics of the Panda from joint_states + URDF text."""
from __future__ import annotations

import pytest

from robot_tasks.bt import BehaviorTreeError, BehaviorTreeFactory, NodeStatus
from robot_tasks.control import ArmKinematics, panda_spec
from robot_tasks.tasks import register_nodes
from robot_tasks.tasks.tool_pose import tool_pose_from_joints

SPEC = panda_spec()
URDF = open(SPEC.urdf_path).read()


def test_matches_arm_kinematics_plus_the_base_offset():
    q = [0.1, -0.5, 0.2, -2.0, 0.1, 1.6, 0.7]
    pose = tool_pose_from_joints(URDF, list(SPEC.joint_names), q, SPEC.joint_names, "panda_grasptarget",
                                 (0.0, 0.0, 0.625))
    reference = ArmKinematics.from_spec(SPEC).fk(q)
    assert (pose["x"], pose["y"], pose["z"] - 0.625) == pytest.approx(tuple(reference.position), abs=1e-9)
    assert pose["frame_id"] == "world"


def test_home_points_the_tool_down_in_front_of_the_robot():
    pose = tool_pose_from_joints(URDF, list(SPEC.joint_names), list(SPEC.home), SPEC.joint_names,
                                 "panda_grasptarget", (0.0, 0.0, 0.625))
    assert 0.25 < pose["x"] < 0.35 and abs(pose["y"]) < 1e-6 and 1.0 < pose["z"] < 1.2
    assert abs(pose["qx"]) == pytest.approx(1.0, abs=1e-3)  # Rx(pi): tool z down, yaw 0


def test_joint_order_in_the_message_does_not_matter_and_extra_joints_are_ignored():
    names = list(reversed(SPEC.joint_names)) + ["panda_finger_joint1"]
    positions = list(reversed(SPEC.home)) + [0.04]
    a = tool_pose_from_joints(URDF, names, positions, SPEC.joint_names, "panda_grasptarget")
    b = tool_pose_from_joints(URDF, list(SPEC.joint_names), list(SPEC.home), SPEC.joint_names, "panda_grasptarget")
    assert a == pytest.approx(b)


def test_leaf_writes_ee_pose_and_reports_bad_input_by_node_name():
    factory = BehaviorTreeFactory()
    register_nodes(factory)
    tree = factory.create_tree_from_text(
        '<root BTCPP_format="4"><BehaviorTree ID="T"><ToolPoseFromJointStates name="fk" joint_states="{js}" '
        'robot_description="{urdf}" base_position="0;0;0.625" ee_pose="{ee}"/></BehaviorTree></root>')
    board = tree.root_blackboard
    assert tree.tick_once() is NodeStatus.FAILURE          # nothing received yet
    board.set("urdf", URDF)
    board.set("js", {"name": list(SPEC.joint_names), "position": list(SPEC.home)})
    assert tree.tick_once() is NodeStatus.SUCCESS
    assert board.get("ee")["z"] > 1.0
    board.set("js", {"name": ["panda_joint1"], "position": [0.0]})
    with pytest.raises(BehaviorTreeError, match="fk.*lacks panda_joint2"):
        tree.tick_once()
    board.set("js", {"name": list(SPEC.joint_names), "position": list(SPEC.home)})
    board.set("urdf", "not a urdf")
    with pytest.raises(BehaviorTreeError, match="fk.*URDF"):
        tree.tick_once()
