"""A speed-scaled controller stretches the motion; the arm server waits for it.

ros2_control's joint_trajectory_controller (kilted) takes a scaling factor on
`~/speed_scaling_input` (control_msgs/SpeedScalingFactor) and advances along the trajectory
at that fraction of its time, as a UR's speed slider does. The arm server judges the motion
by the controller's result, not by the trajectory's nominal duration, so a goal at half
speed succeeds and takes about twice as long (before, it was judged against the nominal end:
a false TOLERANCE_NOT_MET and a stop).
"""
import re

import pytest
from rclpy.qos import DurabilityPolicy, QoSProfile, ReliabilityPolicy
from server_helpers import ActionHelper, joints_goal

from control_msgs.msg import SpeedScalingFactor
from robot_tasks_interfaces.action import MoveToJoints

pytestmark = [pytest.mark.timeout(300), pytest.mark.ros]

PANDA_ARM = [f"panda_joint{i}" for i in range(1, 8)]
HOME = [0.0, -0.785, 0.0, -2.356, 0.0, 1.571, 0.785]
LATCHED = QoSProfile(depth=1, reliability=ReliabilityPolicy.RELIABLE, durability=DurabilityPolicy.TRANSIENT_LOCAL)


@pytest.fixture(scope="module")
def arm(launcher, probe):
    launcher.start_module("robot_tasks.nodes.sim", "sim",
                          params={"scene": "franka_stacking", "real_time_factor": 1.0,
                                  "camera_rate": 0.0, "object_rate": 0.0})
    launcher.start_module("robot_tasks.nodes.arm_server", "arm_server",
                          params={"robot": "panda", "use_sim_time": True}, remaps={"__ns": "/panda"})
    helper = ActionHelper(probe, MoveToJoints, "/panda/move_to_joints")
    helper.wait_ready(60.0)
    scaling = probe.node.create_publisher(SpeedScalingFactor,
                                          "/panda/joint_trajectory_controller/speed_scaling_input", LATCHED)
    return helper, scaling


def _took(arm, target) -> float:
    result, _, _ = arm.run(joints_goal(PANDA_ARM, target, velocity_scaling=0.5), 60.0)
    assert result.error_code == MoveToJoints.Result.SUCCESS, result.message
    return float(re.search(r"reached in ([0-9.]+) s", result.message).group(1))


def test_half_speed_scaling_doubles_the_time_and_still_succeeds(arm, probe):
    helper, scaling = arm
    _took(helper, HOME)
    full = _took(helper, [0.8] + HOME[1:])
    scaling.publish(SpeedScalingFactor(factor=0.5))
    probe.wait_for(lambda: scaling.get_subscription_count() > 0, "the controller's scaling input", 10.0)
    try:
        half = _took(helper, HOME)
    finally:
        scaling.publish(SpeedScalingFactor(factor=1.0))
    print(f"joint move at scaling 1.0: {full:.2f} s, at 0.5: {half:.2f} s")
    assert 1.6 < half / full < 2.4
