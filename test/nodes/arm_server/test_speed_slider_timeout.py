"""A UR slowed by its speed slider is not timed out: goal timeouts run on trajectory time.

The sim's UR10 serves the slider and its broadcaster as Universal_Robots_ROS2_Driver does
(`io_and_status_controller/set_speed_slider`, `speed_scaling_state_broadcaster/speed_scaling`
in percent). At 20 % a joint move of ~1 s takes ~5 s. Two arm servers drive the same arm,
one after the other, with the same goal and a 2.5 s timeout: the one told the broadcaster's
topic (`speed_scaling_topic`, as config/ur10_palletizing.yaml sets it) counts the timeout in
trajectory time and succeeds; the one without times the slowed robot out and stops it.
Unit checks of the clock itself: test_speed_scaling_clock.py.
"""
import re

import pytest
from ros_sim_helpers import call_service
from server_helpers import ActionHelper, joints_goal

from robot_tasks_interfaces.action import MoveToJoints
from ur_msgs.srv import SetSpeedSliderFraction

pytestmark = [pytest.mark.timeout(300), pytest.mark.ros, pytest.mark.sim]

UR10_ARM = ["shoulder_pan_joint", "shoulder_lift_joint", "elbow_joint", "wrist_1_joint", "wrist_2_joint",
            "wrist_3_joint"]
HOME = [0.0, -1.571, 1.571, -1.571, -1.571, 0.0]
SLIDER = "/ur10/io_and_status_controller/set_speed_slider"
BROADCAST = "speed_scaling_state_broadcaster/speed_scaling"
TIMEOUT_S = 2.5


def _arm_server(launcher, name: str, scaling_topic: str):
    remaps = {"__ns": f"/{name}", "joint_states": "/ur10/joint_states",
              "robot_description": "/ur10/robot_description",
              "joint_trajectory_controller/follow_joint_trajectory":
                  "/ur10/joint_trajectory_controller/follow_joint_trajectory"}
    params = {"robot": "ur10", "use_sim_time": True, "world_T_base": [0.0, 0.0, 0.5, 0.0, 0.0, 0.0, 1.0]}
    if scaling_topic:
        params["speed_scaling_topic"] = scaling_topic
        remaps[scaling_topic] = f"/ur10/{scaling_topic}"
    launcher.start_module("robot_tasks.nodes.arm_server", name, params=params, remaps=remaps)


@pytest.fixture(scope="module")
def arms(launcher, probe):
    launcher.start_module("robot_tasks.nodes.sim", "sim",
                          params={"scene": "ur10_palletizing", "real_time_factor": 1.0,
                                  "camera_rate": 0.0, "object_rate": 0.0})
    _arm_server(launcher, "scaled", BROADCAST)
    _arm_server(launcher, "unscaled", "")
    scaled = ActionHelper(probe, MoveToJoints, "/scaled/move_to_joints")
    unscaled = ActionHelper(probe, MoveToJoints, "/unscaled/move_to_joints")
    scaled.wait_ready(90.0)
    unscaled.wait_ready(90.0)
    return scaled, unscaled


def _slider(probe, fraction: float) -> None:
    request = SetSpeedSliderFraction.Request(speed_slider_fraction=fraction)
    assert call_service(probe, SetSpeedSliderFraction, SLIDER, request).success


def _move(arm, target, timeout=TIMEOUT_S):
    result, _, _ = arm.run(joints_goal(UR10_ARM, target, velocity_scaling=0.5, timeout=timeout), 60.0)
    return result


def test_a_slowed_robot_finishes_when_the_server_hears_its_scaling(arms, probe):
    scaled, unscaled = arms
    assert _move(scaled, HOME, 30.0).error_code == MoveToJoints.Result.SUCCESS
    full = _move(scaled, [0.9] + HOME[1:])
    assert full.error_code == MoveToJoints.Result.SUCCESS, full.message
    nominal = float(re.search(r"reached in ([0-9.]+) s", full.message).group(1))
    _slider(probe, 0.2)
    try:
        slowed = _move(scaled, HOME)
        assert slowed.error_code == MoveToJoints.Result.SUCCESS, slowed.message
        took = float(re.search(r"reached in ([0-9.]+) s", slowed.message).group(1))
        print(f"at 100 %: {nominal:.2f} s; at 20 %: {took:.2f} s (timeout {TIMEOUT_S} s of trajectory time)")
        assert took > TIMEOUT_S and took > 3.0 * nominal
        # the same goal through a server that does not hear the scaling: timed out, stopped
        timed_out = _move(unscaled, [0.9] + HOME[1:])
        assert timed_out.error_code == MoveToJoints.Result.TIMEOUT, timed_out.message
        assert f"after {TIMEOUT_S:g} s (" in timed_out.message
    finally:
        _slider(probe, 1.0)
