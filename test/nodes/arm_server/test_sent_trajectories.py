"""The trajectories the arm server sends stay within the Panda's velocity, acceleration and
jerk limits (issue 35): the real sim and arm_server, with a tap (test/support/
trajectory_tap.py) between the server and the sim's joint_trajectory_controller that records
every FollowJointTrajectory goal; each is checked by robot_tasks.control.check_trajectory
with the limits the server uses (URDF + config/limits/panda.yaml, velocity_scaling of the
goal, the server's acceleration_scaling)."""
import threading

import pytest
from paths import REPO
from rclpy.qos import DurabilityPolicy, QoSProfile, ReliabilityPolicy
from server_helpers import ActionHelper, JointRecorder, joints_goal, pose_goal
from trajectory_msgs.msg import JointTrajectory

from robot_tasks.control import (
    ArmKinematics,
    JointLimits,
    TimedTrajectory,
    check_trajectory,
    default_limits_path,
    load_limits_file,
    panda_spec,
)
from robot_tasks_interfaces.action import MoveToJoints, MoveToPose

pytestmark = [pytest.mark.timeout(300), pytest.mark.ros, pytest.mark.sim, pytest.mark.slow]

Code = MoveToPose.Result
NS = "/panda"
PANDA_ARM = [f"panda_joint{i}" for i in range(1, 8)]
HOME = [0.0, -0.785, 0.0, -2.356, 0.0, 1.571, 0.785]
VELOCITY_SCALING, ACCELERATION_SCALING = 0.6, 0.7
TAP = REPO / "test" / "support" / "trajectory_tap.py"


class Captured:
    def __init__(self, probe):
        self.lock = threading.Lock()
        self.items = []
        qos = QoSProfile(depth=50, reliability=ReliabilityPolicy.RELIABLE,
                         durability=DurabilityPolicy.TRANSIENT_LOCAL)
        probe.node.create_subscription(JointTrajectory, f"{NS}/tap/trajectories", self._on, qos)

    def _on(self, msg):
        with self.lock:
            self.items.append(msg)

    def count(self):
        with self.lock:
            return len(self.items)

    def last(self) -> TimedTrajectory:
        with self.lock:
            msg = self.items[-1]
        t = [p.time_from_start.sec + p.time_from_start.nanosec * 1e-9 for p in msg.points]
        return TimedTrajectory(list(msg.joint_names), [list(p.positions) for p in msg.points],
                               [list(p.velocities) for p in msg.points], t,
                               [list(p.accelerations) for p in msg.points])


@pytest.fixture(scope="module")
def sim(launcher, probe):
    launcher.start_module("robot_tasks.nodes.sim", "sim",
                          params={"scene": "franka_stacking", "seed": 0,
                                  "real_time_factor": 1.0, "camera_rate": 0.0,
                                  "object_rate": 10.0})
    launcher.start_script(TAP, "trajectory_tap", params={"use_sim_time": True},
                          remaps={"__ns": NS})
    launcher.start_module("robot_tasks.nodes.arm_server", "arm_server",
                          params={"use_sim_time": True, "robot": "panda",
                                  "controller_action": "tap/follow_joint_trajectory",
                                  "acceleration_scaling": ACCELERATION_SCALING},
                          remaps={"__ns": NS})
    move = ActionHelper(probe, MoveToPose, f"{NS}/move_to_pose")
    joints = ActionHelper(probe, MoveToJoints, f"{NS}/move_to_joints")
    for helper in (move, joints):
        helper.wait_ready(60.0)
    recorder = JointRecorder(probe, f"{NS}/joint_states")
    probe.wait_for(lambda: recorder.latest() is not None, "sim joint_states", 30.0)
    return move, joints, Captured(probe), probe


@pytest.fixture(scope="module")
def limits():
    kin = ArmKinematics.from_spec(panda_spec())
    merged = JointLimits.combine(kin.joint_names, kin.velocity_limits,
                                 load_limits_file(default_limits_path("panda")))
    return merged.scaled(VELOCITY_SCALING, ACCELERATION_SCALING)


def _run_and_check(sim, limits, helper, goal):
    _, _, captured, probe = sim
    before = captured.count()
    result, _, _ = helper.run(goal, 60.0)
    assert result.error_code == Code.SUCCESS, result.message
    probe.wait_for(lambda: captured.count() > before, "the tapped trajectory", 10.0)
    traj = captured.last()
    report = check_trajectory(traj, limits)
    assert report.interpolation == "quintic"
    assert report.within(1e-6), report.worst()
    assert report.worst()[0] > 0.8, report.worst()   # and it uses what the limits allow
    return traj


def test_a_joint_goal_is_sent_within_the_limits(sim, limits):
    _, joints, _, _ = sim
    _run_and_check(sim, limits, joints,
                   joints_goal(PANDA_ARM, HOME, velocity_scaling=VELOCITY_SCALING))


def test_a_planned_goal_is_sent_within_the_limits(sim, limits):
    move, _, _, _ = sim
    _run_and_check(sim, limits, move, pose_goal(0.55, -0.35, 0.72, velocity_scaling=VELOCITY_SCALING))
    _run_and_check(sim, limits, move, pose_goal(0.55, 0.35, 0.70, motion=MoveToPose.Goal.PLANNED,
                                                velocity_scaling=VELOCITY_SCALING))
