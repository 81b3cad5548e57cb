"""Typed ports -> goal messages for the concrete leaves (set_goal), without DDS.

The leaves are registered without an rclpy node (as `tree validate` does); set_goal
only reads ports, so the goals can be checked field by field.
"""
import math

import pytest

from robot_tasks.bt import BehaviorTreeFactory
from robot_tasks.ros.leaves import register_nodes


def leaf(xml_leaf: str, **blackboard):
    factory = BehaviorTreeFactory()
    register_nodes(factory)
    tree = factory.create_tree_from_text(
        f'<root BTCPP_format="4"><BehaviorTree ID="T">{xml_leaf}</BehaviorTree></root>')
    for key, value in blackboard.items():
        tree.root_blackboard.set(key, value)
    return tree.root_node


def goal_of(node):
    goal = node.action_type.Goal()
    assert node.set_goal(goal) is True
    return goal


def test_move_to_pose_from_a_detection_with_orientation_and_offset():
    detection = {"label": "red_cube", "pose": {"position": {"x": 0.5, "y": -0.1, "z": 0.02},
                                                "orientation": {"x": 0, "y": 0, "z": 0, "w": 1}}}
    node = leaf('<MoveToPose pose="{obj}" orientation="1;0;0;0" z_offset="0.1" motion="cartesian" '
                'position_tolerance="0.002" velocity_scaling="0.3" timeout="4"/>', obj=detection)
    goal = goal_of(node)
    p, o = goal.target.pose.position, goal.target.pose.orientation
    assert (p.x, p.y) == (0.5, -0.1) and math.isclose(p.z, 0.12)
    assert (o.x, o.y, o.z, o.w) == (1.0, 0.0, 0.0, 0.0)
    assert goal.target.header.frame_id == "world"
    assert (goal.motion, goal.position_tolerance, goal.velocity_scaling, goal.timeout) == (2, 0.002, 0.3, 4.0)


def test_move_to_pose_from_xyz_ports_and_bad_input():
    goal = goal_of(leaf('<MoveToPose x="0.4" y="0" z="0.3" frame="panda_link0" motion="planned"/>'))
    assert goal.target.pose.position.z == 0.3 and goal.target.header.frame_id == "panda_link0"
    assert goal.motion == 1 and goal.target.pose.orientation.w == 1.0
    with pytest.raises(ValueError, match="missing: z"):
        goal_of(leaf('<MoveToPose x="0.4" y="0"/>'))
    with pytest.raises(ValueError, match="motion: 'teleport' is not one of free|planned|cartesian"):
        goal_of(leaf('<MoveToPose pose="0;0;0" motion="teleport"/>'))


def test_move_to_joints_lists_and_mismatch():
    goal = goal_of(leaf('<MoveToJoints joint_names="a;b" positions="{q}" tolerance="0.01"/>', q=[0.5, -1]))
    assert list(goal.joint_names) == ["a", "b"] and list(goal.positions) == [0.5, -1.0]
    assert goal.tolerance == 0.01
    with pytest.raises(ValueError, match="2 joint_names but 1 positions"):
        goal_of(leaf('<MoveToJoints joint_names="a;b" positions="0.5"/>'))


def test_gripper_and_detection_goals():
    goal = goal_of(leaf('<GripperCommand mode="suction" suction="true" timeout="2"/>'))
    assert (goal.mode, goal.suction_on, goal.timeout) == (goal.SUCTION, True, 2.0)
    goal = goal_of(leaf('<GripperCommand width="0.04" max_effort="30"/>'))
    assert (goal.mode, goal.width, goal.max_effort) == (goal.PARALLEL, 0.04, 30.0)
    goal = goal_of(leaf('<DetectObjects labels="red_cube;bin" min_confidence="0.5"/>'))
    assert list(goal.labels) == ["red_cube", "bin"] and goal.min_confidence == 0.5


def test_a_leaf_without_ros_node_raises_a_clear_error_when_ticked():
    node = leaf('<MoveToJoints joint_names="a" positions="0"/>')
    with pytest.raises(Exception, match="registered without an rclpy node"):
        node.execute_tick()
