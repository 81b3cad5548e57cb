"""FrameTree: the parent -> child link transforms of a URDF, checked against PyBullet.

The sim's robots are built from the same robot_description the sim publishes; for random
joint positions, the tree's transforms composed from the base must give every link the
pose PyBullet itself reports for it (the sim's ground truth).
"""
import numpy as np
import pytest

from robot_tasks.control import ModelError, Pose
from robot_tasks.control.frame_tree import FrameTree, compose_frames
from robot_tasks.sim import World


def rotation_angle(a: Pose, b: Pose) -> float:
    dot = abs(float(np.dot(a.quaternion, b.quaternion)))
    return 2.0 * float(np.arccos(min(1.0, dot)))


def link_poses_from_tree(robot, tree: FrameTree) -> dict:
    states = robot.joint_states()
    tree.set_positions(states.names, states.position)
    base = Pose(*map(np.array, robot.base_pose()))
    return compose_frames(tree.fixed_transforms() + tree.moving_transforms(), tree.root_link, base)


@pytest.mark.parametrize("scene, robot_name", [("franka_stacking", "panda"), ("ur10_palletizing", "ur10"),
                                               ("franka_pyramid", "panda_2")])
def test_every_link_matches_pybullet(scene, robot_name):
    world = World(scene=scene, seed=0)
    try:
        robot = world.robot(robot_name)
        tree = FrameTree.from_urdf_string(robot.robot_description, f"{robot_name} robot_description")
        rng = np.random.default_rng(3)
        for _ in range(5):
            target = {}
            for name in robot.joint_names:
                limit = robot.limits[name]
                target[name] = rng.uniform(limit.lower, limit.upper)
            robot.reset_joints(target)
            poses = link_poses_from_tree(robot, tree)
            assert set(poses) == set(tree.links)
            for link in tree.links:
                truth = Pose(*map(np.array, robot.link_pose(link)))
                assert np.linalg.norm(poses[link].position - truth.position) < 1e-6, link
                assert rotation_angle(poses[link], truth) < 1e-6, link
    finally:
        world.close()


PANDA_FINGERS = """<robot name="r">
  <link name="base"/><link name="left"/><link name="right"/><link name="tip"/>
  <joint name="j_left" type="prismatic"><parent link="base"/><child link="left"/>
    <axis xyz="0 1 0"/><limit lower="0" upper="0.04" effort="1" velocity="1"/></joint>
  <joint name="j_right" type="prismatic"><parent link="base"/><child link="right"/>
    <axis xyz="0 -1 0"/><limit lower="0" upper="0.04" effort="1" velocity="1"/>
    <mimic joint="j_left" multiplier="2" offset="0.001"/></joint>
  <joint name="j_tip" type="fixed"><parent link="base"/><child link="tip"/><origin xyz="0 0 0.1"/></joint>
</robot>"""


def test_fixed_once_moving_when_known_and_mimic():
    tree = FrameTree.from_urdf_string(PANDA_FINGERS, "fingers")
    assert tree.root_link == "base" and tree.movable_joint_names == ["j_left", "j_right"]
    [tip] = tree.fixed_transforms()
    assert (tip.parent, tip.child) == ("base", "tip")
    np.testing.assert_allclose(tip.pose.position, [0, 0, 0.1])
    assert tree.moving_transforms() == []                      # nothing heard yet: nothing made up
    tree.set_positions(["j_left", "unknown_joint"], [0.01, 5.0])
    left, right = tree.moving_transforms()
    np.testing.assert_allclose(left.pose.position, [0, 0.01, 0], atol=1e-12)
    np.testing.assert_allclose(right.pose.position, [0, -0.021, 0], atol=1e-12)   # 2 * 0.01 + 0.001


@pytest.mark.parametrize("urdf, message", [
    ("<robot><link name='a'/>", "not valid XML"),
    ("<model/>", "not <robot>"),
    ("<robot name='r'><link name='a'/></robot>", "no joints"),
    ("<robot name='r'><link name='a'/><link name='b'/><joint name='f' type='floating'>"
     "<parent link='a'/><child link='b'/></joint></robot>", "joint 'f' is floating"),
])
def test_bad_urdf_names_the_source(urdf, message):
    with pytest.raises(ModelError, match=f"my_robot.*{message}"):
        FrameTree.from_urdf_string(urdf, "my_robot")
