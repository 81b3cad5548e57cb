"""The UR10's speed slider: set_speed_slider and the speed_scaling broadcaster, as the UR driver.

Universal_Robots_ROS2_Driver (kilted) takes the slider as a fraction in [0.01, 1.0] on
`io_and_status_controller/set_speed_slider` (ur_msgs/SetSpeedSliderFraction; anything else
is refused) and publishes the scaling in percent on
`speed_scaling_state_broadcaster/speed_scaling` (std_msgs/Float64). The trajectory
controller runs at that fraction: a 1 s trajectory at 50 % ends after 2 s.
"""
from __future__ import annotations

import numpy as np
import pytest
from ros_sim_helpers import Recorder, call_service, joint_map, trajectory
from sensor_msgs.msg import JointState
from std_msgs.msg import Float64

from control_msgs.action import FollowJointTrajectory
from ur_msgs.srv import SetSpeedSliderFraction

pytestmark = [pytest.mark.ros, pytest.mark.sim]

SIM_PARAMS = {"scene": "ur10_palletizing", "seed": 0, "real_time_factor": 1.0, "camera_rate": 0.0,
              "object_rate": 0.0}
SLIDER = "/ur10/io_and_status_controller/set_speed_slider"
BROADCAST = "/ur10/speed_scaling_state_broadcaster/speed_scaling"
ACTION = "/ur10/joint_trajectory_controller/follow_joint_trajectory"
UR10_ARM = ["shoulder_pan_joint", "shoulder_lift_joint", "elbow_joint",
            "wrist_1_joint", "wrist_2_joint", "wrist_3_joint"]


def slider(probe, fraction: float) -> bool:
    return call_service(probe, SetSpeedSliderFraction, SLIDER,
                        SetSpeedSliderFraction.Request(speed_slider_fraction=fraction)).success


def test_the_slider_is_refused_outside_its_range_and_broadcast_in_percent(probe):
    scaling = Recorder(probe, Float64, BROADCAST)
    assert not slider(probe, 0.0) and not slider(probe, 1.5) and not slider(probe, float("nan"))
    assert scaling.wait_for(lambda m: m.data == pytest.approx(100.0), "100 % broadcast").data == 100.0
    assert slider(probe, 0.25)
    assert scaling.wait_for(lambda m: m.data == pytest.approx(25.0), "25 % broadcast").data == 25.0
    assert slider(probe, 1.0)
    scaling.close()


def test_half_speed_slider_stretches_a_trajectory_to_twice_its_time(probe):
    joints = Recorder(probe, JointState, "/ur10/joint_states")
    start = np.array([joint_map(joints.latest(10.0))[j] for j in UR10_ARM])
    client = probe.create_action_client(FollowJointTrajectory, ACTION)
    probe.wait_for_action_server(None, ACTION, 30.0, client=client)
    took = {}
    try:
        for fraction, target in ((1.0, start + [0.3, 0, 0, 0, 0, 0]), (0.5, start)):
            assert slider(probe, fraction)
            goal = FollowJointTrajectory.Goal(trajectory=trajectory(UR10_ARM, [(target, 1.0)]))
            handle = probe.wait_future(probe.run_on_executor(lambda: client.send_goal_async(goal), "goal sent"),
                                       10.0, "goal response")
            assert handle.accepted
            sent = joints.latest()
            response = probe.wait_future(probe.run_on_executor(handle.get_result_async, "result asked"),
                                         20.0, "result")
            done = joints.latest()
            assert response.result.error_code == FollowJointTrajectory.Result.SUCCESSFUL, response.result.error_string
            took[fraction] = (done.header.stamp.sec + done.header.stamp.nanosec * 1e-9) - \
                             (sent.header.stamp.sec + sent.header.stamp.nanosec * 1e-9)
    finally:
        slider(probe, 1.0)
    assert 1.6 < took[0.5] / took[1.0] < 2.5, took
