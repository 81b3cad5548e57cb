"""The state_publisher over real DDS against the real sim: /tf is PyBullet's truth.

Done-when: with the stacking scene running, composing /tf_static and /tf from "world"
gives every Panda link the pose PyBullet gives it, within 1 mm and 0.01 rad. The
ground truth is PyBullet's own link pose for the joint positions the sim published
(the same scene built in the test, its joints set to that joint_states message): the
state_publisher only ever sees the URDF and joint_states.
"""
from __future__ import annotations

import sys
import time

import numpy as np
import pybullet as p
import pytest
from geometry_msgs.msg import PoseStamped
from ros_sim_helpers import LATCHED, PANDA_ARM, Recorder, trajectory
from sensor_msgs.msg import JointState
from trajectory_msgs.msg import JointTrajectory

from franka_msgs.action import Move
from robot_tasks.control.frame_tree import compose_frames
from robot_tasks.control.pose import Pose
from robot_tasks.nodes.state_publisher.tf_convert import frame_transform
from robot_tasks.sim import World
from robot_tasks.testing.ros_test_node import wait_until
from robot_tasks_interfaces.msg import ObjectStateArray
from tf2_msgs.msg import TFMessage

pytestmark = [pytest.mark.ros, pytest.mark.sim]

POSITION_TOLERANCE, ANGLE_TOLERANCE = 1e-3, 0.01          # m, rad (the bar)
SIM_PARAMS = {"scene": "franka_stacking", "seed": 0, "real_time_factor": 1.0, "camera_rate": 1.0,
              "camera_width": 64, "camera_height": 48}
AWAY_FROM_HOME = [0.4, -0.3, 0.2, -2.0, 0.3, 2.1, 0.2]


def angle_between(a: Pose, b: Pose) -> float:
    return 2.0 * float(np.arccos(min(1.0, abs(float(np.dot(a.quaternion, b.quaternion))))))


def world_poses(messages) -> dict[str, Pose]:
    """Compose the transforms of these TFMessages (later ones win) from "world"."""
    newest = {t.child_frame_id: frame_transform(t) for msg in messages for t in msg.transforms}
    return compose_frames(newest.values(), "world")


def message_stamped(recorder, stamp, first_child_prefix: str):
    """The recorded TFMessage whose transforms carry `stamp` and whose frames start so."""
    for msg in reversed(recorder.snapshot()):
        head = msg.transforms[0]
        if head.header.stamp == stamp and head.child_frame_id.startswith(first_child_prefix):
            return msg
    return None


def joint_states_and_tf(ros_node, joint_states, tf, prefix: str, predicate, what: str):
    """A recorded joint_states message satisfying `predicate` and the /tf message the
    state_publisher made from it (same stamp). Either side may skip messages under load
    (queues of depth 10), so look for any pair, not for one given message."""
    found = []

    def pair():
        by_stamp = {(m.header.stamp.sec, m.header.stamp.nanosec): m for m in joint_states.snapshot() if predicate(m)}
        for msg in reversed(tf.snapshot()):
            head = msg.transforms[0]
            key = (head.header.stamp.sec, head.header.stamp.nanosec)
            if head.child_frame_id.startswith(prefix) and key in by_stamp:
                found.append((by_stamp[key], msg))
                return True
        return False

    ros_node.wait_for(pair, f"{what} and its /tf message", 60.0)
    return found[-1]


def start_cell(launcher, scene_params, publisher_params):
    launcher.start_module("robot_tasks.nodes.sim", name="sim", params=scene_params)
    return launcher.start_module("robot_tasks.nodes.state_publisher", name="state_publisher",
                                 params=publisher_params)


def still(js: JointState) -> bool:
    return max(abs(v) for v in js.velocity) < 1e-4


def ground_truth(scene: str, robot_name: str, js: JointState) -> dict[str, Pose]:
    """PyBullet's link poses of the scene's robot at the joint positions of `js`."""
    world = World(scene=scene, seed=0)
    try:
        robot = world.robot(robot_name)
        robot.reset_joints(dict(zip(js.name, js.position)))
        base = p.getBodyInfo(robot.body_id, physicsClientId=world.client)[0].decode()
        links = [base] + list(robot.link_index_by_name)
        return {link: Pose(*map(np.array, robot.link_pose(link))) for link in links}
    finally:
        world.close()


def assert_links_match(poses: dict[str, Pose], truth: dict[str, Pose], prefix: str) -> None:
    for link, expected in truth.items():
        frame = prefix + link
        assert frame in poses, f"/tf has no frame {frame}; it has {sorted(poses)}"
        error = float(np.linalg.norm(poses[frame].position - expected.position))
        assert error < POSITION_TOLERANCE, f"{frame}: {error * 1000:.3f} mm off PyBullet's pose"
        angle = angle_between(poses[frame], expected)
        assert angle < ANGLE_TOLERANCE, f"{frame}: {angle:.4f} rad off PyBullet's pose"


def test_every_panda_link_on_tf_is_where_pybullet_has_it(launcher, ros_node):
    start_cell(launcher, SIM_PARAMS, {"use_sim_time": True})
    joint_states = Recorder(ros_node, JointState, "/panda/joint_states", keep=500)
    tf = Recorder(ros_node, TFMessage, "/tf", qos=100, keep=3000)
    tf_static = Recorder(ros_node, TFMessage, "/tf_static", qos=LATCHED, keep=10)
    objects = Recorder(ros_node, ObjectStateArray, "/objects", keep=2)
    camera = Recorder(ros_node, PoseStamped, "/camera/pose", qos=LATCHED, keep=1)
    ros_node.wait_for_subscriber("/panda/joint_trajectory_controller/joint_trajectory", timeout=30.0)
    tf.latest(timeout=30.0)

    # move every joint away from home (fingers closing to 3 cm), then let it settle
    arm = ros_node.node.create_publisher(JointTrajectory, "/panda/joint_trajectory_controller/joint_trajectory", 10)
    fingers = ros_node.create_action_client(Move, "/panda/franka_gripper/move")       # franka_gripper's
    ros_node.wait_for_action_server(Move, "/panda/franka_gripper/move", 30.0, client=fingers)
    arm.publish(trajectory(PANDA_ARM, [(AWAY_FROM_HOME, 1.0)]))
    ros_node.run_on_executor(lambda: fingers.send_goal_async(Move.Goal(width=0.03, speed=0.1)), "fingers to 3 cm")
    js, arm_tf = joint_states_and_tf(ros_node, joint_states, tf, "panda/",
                                     lambda m: still(m) and abs(m.position[0] - AWAY_FROM_HOME[0]) < 1e-3,
                                     "the arm at rest away from home")
    seen = []

    def objects_on_tf():
        msg = objects.latest()
        seen.append((msg, message_stamped(tf, msg.header.stamp, msg.objects[0].name)))
        return seen[-1][1] is not None

    ros_node.wait_for(objects_on_tf, "the /tf message of an objects message", 10.0)
    objects_msg, objects_tf = seen[-1]
    ros_node.wait_for(lambda: tf_static.snapshot(), "/tf_static", 10.0)
    poses = world_poses(tf_static.snapshot()[-1:] + [arm_tf, objects_tf])

    truth = ground_truth("franka_stacking", "panda", js)
    assert len(truth) == 13                  # panda_link0..8, hand, two fingers, grasp target
    assert_links_match(poses, truth, "panda/")

    # the camera and the sim's objects are frames too
    position = camera.latest().pose.position
    np.testing.assert_allclose(poses["camera_optical_frame"].position, [position.x, position.y, position.z],
                               atol=1e-9)
    for obj in objects_msg.objects:
        np.testing.assert_allclose(poses[obj.name].position,
                                   [obj.pose.position.x, obj.pose.position.y, obj.pose.position.z], atol=1e-9)


PYRAMID_BASES = [0.0, 0.0, 0.625, 0.0, 0.0, 0.0, 1.0,      # panda_1 (franka_pyramid puts it here)
                 1.0, 0.0, 0.625, 0.0, 0.0, 1.0, 0.0]      # panda_2, turned by pi about z


def test_two_pandas_get_their_own_frame_prefixes(launcher, ros_node):
    start_cell(launcher, {**SIM_PARAMS, "scene": "franka_pyramid"},
               {"use_sim_time": True, "robots": ["panda_1", "panda_2"], "base_poses": PYRAMID_BASES})
    tf = Recorder(ros_node, TFMessage, "/tf", qos=100, keep=3000)
    tf_static = Recorder(ros_node, TFMessage, "/tf_static", qos=LATCHED, keep=10)
    for ns in ("panda_1", "panda_2"):
        joint_states = Recorder(ros_node, JointState, f"/{ns}/joint_states", keep=500)
        js, arm_tf = joint_states_and_tf(ros_node, joint_states, tf, f"{ns}/", still, f"{ns} at rest")
        ros_node.wait_for(lambda: tf_static.snapshot() and f"{ns}/panda_link0" in
                          {t.child_frame_id for t in tf_static.snapshot()[-1].transforms}, f"{ns}'s static frames")
        poses = world_poses(tf_static.snapshot()[-1:] + [arm_tf])
        assert_links_match(poses, ground_truth("franka_pyramid", ns, js), f"{ns}/")


def test_a_bad_parameter_stops_the_node_naming_it(launcher):
    proc = launcher.start(
        [sys.executable, "-m", "robot_tasks.nodes.state_publisher", "--ros-args",
         "-p", "robots:=[panda_1, panda_2]", "-p", "base_poses:=[0.0, 0.0, 0.625, 0.0, 0.0, 0.0, 1.0]"],
        name="state_publisher", may_exit=True)
    wait_until(lambda: not proc.is_running(), "the state_publisher to exit", 20.0)
    assert proc.popen.returncode == 2
    assert "state_publisher: parameter 'base_poses' must have 7 numbers per robot (14 for" in proc.tail()


def test_with_nobody_on_tf_it_listens_to_nothing_that_streams(launcher, ros_node):
    """No /tf subscriber: no joint_states, objects or /clock subscription (an idle cell's
    state_publisher costs nothing); the first /tf subscriber brings them, and /tf flows."""
    start_cell(launcher, SIM_PARAMS, {"use_sim_time": True})

    def streams():
        topics = dict(ros_node.node.get_subscriber_names_and_types_by_node("state_publisher", "/"))
        return {t for t in topics if t in ("/clock", "/panda/joint_states", "/objects")}

    ros_node.wait_for(lambda: ros_node.node.count_publishers("/panda/joint_states") > 0, "the sim", 30.0)
    time.sleep(1.5)                          # two of the node's checks: still nobody on /tf
    assert streams() == set()
    tf = Recorder(ros_node, TFMessage, "/tf", qos=100, keep=100)
    tf.latest(timeout=30.0)
    assert streams() == {"/clock", "/panda/joint_states", "/objects"}
