"""Run-time obstacles over real DDS: the SetPlanningObstacles leaf publishes a box on the
arm server's latched `planning_obstacles` topic, and PLANNED goals go around it.

The real sim (PyBullet, franka_stacking: the Panda stands on the table top at z 0.625)
and a real arm_server in /panda. The box is a wall between the start and the target of
a PLANNED move whose straight joint-space path crosses it; the executed path is graded
from the recorded joint_states (FK of the Panda's collision geometry against the box).
"""
import math
import time

import numpy as np
import pytest
from server_helpers import ActionHelper, JointRecorder, joints_goal, pose_goal

from robot_tasks.bt import BehaviorTreeFactory, NodeStatus
from robot_tasks.control import ArmKinematics, Box, CollisionChecker, Pose, first_invalid_state, panda_spec
from robot_tasks.ros.leaves import register_ros_nodes
from robot_tasks.ros.qos import LATCHED
from robot_tasks_interfaces.action import MoveToJoints, MoveToPose
from robot_tasks_interfaces.msg import ObjectState, ObjectStateArray

pytestmark = [pytest.mark.timeout(300), pytest.mark.ros, pytest.mark.sim, pytest.mark.slow]

Code = MoveToPose.Result
NS = "/panda"
BASE_Z = 0.625
PANDA_ARM = [f"panda_joint{i}" for i in range(1, 8)]
HOME = [0.0, -0.785, 0.0, -2.356, 0.0, 1.571, 0.785]
START, TARGET = (0.45, -0.3, 0.80), (0.45, 0.3, 0.80)         # world frame, tool down
WALL = {"label": "wall", "id": "wall", "size": {"x": 0.3, "y": 0.04, "z": 0.5},
        "pose": {"position": {"x": 0.5, "y": 0.0, "z": BASE_Z + 0.25},
                 "orientation": {"x": 0.0, "y": 0.0, "z": 0.0, "w": 1.0}}}
# The executed path is graded against the box itself (padding 0), and the measured joints
# lag the planned ones by a few mm of tracking error at speed: plan with the 2 cm margin a
# user gives a perceived object (with margin 0 the right finger once grazed the wall by the
# grader's reckoning, CI 2026-12-02, though the plan kept the checker's 1 cm padding).
LEAF_XML = """<root BTCPP_format="4"><BehaviorTree ID="T">
  <SetPlanningObstacles objects="{objects}" labels="{labels}" margin="{margin}"
                        topic="/panda/planning_obstacles" timeout="5000"/>
</BehaviorTree></root>"""


@pytest.fixture(scope="module")
def sim(launcher, probe):
    launcher.start_module("robot_tasks.nodes.sim", "sim",
                          params={"scene": "franka_stacking", "seed": 0, "real_time_factor": 1.0,
                                  "camera_rate": 0.0, "object_rate": 10.0})
    arm = launcher.start_module("robot_tasks.nodes.arm_server", "arm_server",
                                params={"use_sim_time": True, "robot": "panda"}, remaps={"__ns": NS})
    move = ActionHelper(probe, MoveToPose, f"{NS}/move_to_pose")
    joints = ActionHelper(probe, MoveToJoints, f"{NS}/move_to_joints")
    for helper in (move, joints):
        helper.wait_ready(60.0)
    recorder = JointRecorder(probe, f"{NS}/joint_states")
    probe.wait_for(lambda: recorder.latest() is not None, "sim joint_states", 30.0)
    return move, joints, recorder, arm


@pytest.fixture(scope="module")
def kin():
    spec = panda_spec()
    return ArmKinematics.from_spec(spec), spec


def set_obstacles(probe, objects, labels, margin=0.02) -> NodeStatus:
    """Tick the real leaf (on the probe's node) until it has an answer."""
    factory = BehaviorTreeFactory()
    register_ros_nodes(factory, probe.node)
    tree = factory.create_tree_from_text(LEAF_XML)
    tree.root_blackboard.set("objects", objects)
    tree.root_blackboard.set("labels", labels)
    tree.root_blackboard.set("margin", margin)
    deadline = time.monotonic() + 10.0
    status = tree.tick_once()
    while status == NodeStatus.RUNNING and time.monotonic() < deadline:
        time.sleep(0.02)
        status = tree.tick_once()
    return status


def arm_q(sample):
    return [sample[2][n] for n in PANDA_ARM]


def move_to_start(move, joints):
    result, _, _ = joints.run(joints_goal(PANDA_ARM, HOME, velocity_scaling=1.0), 60.0)
    assert result.error_code == Code.SUCCESS, result.message
    result, _, _ = move.run(pose_goal(*START), 60.0)
    assert result.error_code == Code.SUCCESS, result.message


def test_a_planned_move_goes_around_a_run_time_box(sim, kin, probe):
    move, joints, recorder, arm = sim
    arm_kin, spec = kin
    move_to_start(move, joints)
    assert set_obstacles(probe, [WALL], "wall") == NodeStatus.SUCCESS
    # A bad set (NaN pose) is refused with the object named, and the wall stays.
    bad = ObjectStateArray()
    bad.header.frame_id = "world"
    bad.objects.append(ObjectState(name="broken_box"))
    bad.objects[0].pose.position.x = math.nan
    bad.objects[0].size.x = bad.objects[0].size.y = bad.objects[0].size.z = 0.1
    raw = probe.node.create_publisher(ObjectStateArray, f"{NS}/planning_obstacles", LATCHED)
    raw.publish(bad)
    probe.wait_for(lambda: "planning_obstacles refused: obstacle 'broken_box'" in arm.log_path.read_text(),
                   "the arm server's refusal in its log", 10.0)
    assert "keeping the previous run-time obstacles (wall)" in arm.log_path.read_text()
    probe.node.destroy_publisher(raw)

    q_start = np.array(arm_q(recorder.latest()))
    began = time.monotonic()
    result, _, _ = move.run(pose_goal(*TARGET, motion=MoveToPose.Goal.PLANNED), 60.0)
    assert result.error_code == Code.SUCCESS, result.message
    samples = recorder.since(began)
    assert len(samples) > 50

    wall = Box("wall", (0.3, 0.04, 0.5), Pose([0.5, 0.0, 0.25]))   # base frame
    table = Box("table", (1.5, 1.0, 0.05), Pose([0.5, 0.0, -0.025]))
    grader = CollisionChecker.from_urdf_file(arm_kin, spec.urdf_path, spec.package_dirs,
                                             [table, wall], padding=0.0)
    q_end = np.array(arm_q(samples[-1]))
    assert first_invalid_state(grader, [q_start, q_end]) is not None, \
        "the straight path would have been clear: this test proves nothing"
    hits = [grader.first_collision(arm_q(s)) for s in samples]
    assert not [h for h in hits if h and "wall" in h], "the arm went through the run-time box"
    tip = arm_kin.fk(q_end).position + [0.0, 0.0, BASE_Z]
    assert np.linalg.norm(tip - TARGET) <= 0.005


def test_a_box_around_the_target_fails_the_goal_then_clearing_frees_it(sim, probe):
    move, joints, _, _ = sim
    move_to_start(move, joints)
    around = dict(WALL, id="crate", label="crate", size={"x": 0.25, "y": 0.25, "z": 0.25},
                  pose={"position": {"x": TARGET[0], "y": TARGET[1], "z": TARGET[2]}})
    assert set_obstacles(probe, [around, WALL], "crate") == NodeStatus.SUCCESS   # only the crate
    result, _, _ = move.run(pose_goal(*TARGET, motion=MoveToPose.Goal.PLANNED), 60.0)
    assert result.error_code == Code.PLANNING_FAILED, result.message
    assert "crate" in result.message
    assert set_obstacles(probe, [around, WALL], "") == NodeStatus.SUCCESS       # no labels: cleared
    result, _, _ = move.run(pose_goal(*TARGET, motion=MoveToPose.Goal.PLANNED), 60.0)
    assert result.error_code == Code.SUCCESS, result.message
