"""controller_manager's services on the sim over real DDS, controller_manager_msgs, the Panda of
franka_stacking (an arm with no compliant controllers): list_controllers, switch_controller's
strictness cases and words, and what a switch does — the trajectory controller deactivated
refuses a FollowJointTrajectory goal (control_msgs, an rclpy ActionClient) while the arm holds
still, and takes goals again once activated."""
from __future__ import annotations

import time

import numpy as np
import pytest
from ros_sim_helpers import PANDA_ARM, Recorder, call_service, joint_map, trajectory, wait_for_log
from sensor_msgs.msg import JointState

from control_msgs.action import FollowJointTrajectory
from controller_manager_msgs.srv import ListControllers, SwitchController

pytestmark = [pytest.mark.ros, pytest.mark.sim, pytest.mark.timeout(120)]

SIM_PARAMS = {"scene": "franka_stacking", "seed": 0, "real_time_factor": 1.0, "camera_rate": 0.0,
              "object_rate": 0.0}
NS = "/panda"
JTC = "joint_trajectory_controller"
Request = SwitchController.Request


def switch(probe, activate=(), deactivate=(), strictness=Request.STRICT):
    return call_service(probe, SwitchController, f"{NS}/controller_manager/switch_controller", Request(
        activate_controllers=list(activate), deactivate_controllers=list(deactivate), strictness=strictness))


def states(probe) -> dict:
    response = call_service(probe, ListControllers, f"{NS}/controller_manager/list_controllers",
                            ListControllers.Request())
    return {c.name: c.state for c in response.controller}


@pytest.fixture(scope="module")
def joint_states(probe):
    rec = Recorder(probe, JointState, f"{NS}/joint_states")
    rec.latest(timeout=20.0)
    return rec


@pytest.fixture(scope="module")
def follow(probe):
    action = probe.create_action_client(FollowJointTrajectory, f"{NS}/{JTC}/follow_joint_trajectory")
    probe.wait_for(action.server_is_ready, "follow_joint_trajectory", 20.0)
    yield action
    probe.destroy_action_clients([action])


def arm_positions(joint_states) -> np.ndarray:
    return np.array([joint_map(joint_states.latest())[n] for n in PANDA_ARM])


def goal_to(q, seconds=1.0) -> FollowJointTrajectory.Goal:
    return FollowJointTrajectory.Goal(trajectory=trajectory(PANDA_ARM, [(list(q), seconds)]))


def test_the_bringup_lists_the_broadcaster_and_the_active_trajectory_controller(probe):
    assert states(probe) == {"joint_state_broadcaster": "active", JTC: "active"}


@pytest.mark.parametrize("activate, deactivate, strictness, ok, message", [
    (["teleport"], [], Request.STRICT, False,
     "Could not activate controller with name 'teleport' because no controller with this name exists"),
    (["teleport"], [], Request.BEST_EFFORT, False,
     "Could not activate controller with name 'teleport' because no controller with this name exists\n"),
    ([], ["teleport"], 0, False,       # 0: the manager's default, best effort
     "Could not deactivate controller with name 'teleport' because no controller with this name exists\n"),
    ([JTC], [], Request.STRICT, False, "Controller with name 'joint_trajectory_controller' is already active."),
    ([JTC], [], Request.BEST_EFFORT, True,
     "After checking the controllers, no controllers need to be activated or deactivated."),
    ([], [], Request.STRICT, True,
     "After checking the controllers, no controllers need to be activated or deactivated."),
    ([], ["joint_state_broadcaster"], Request.STRICT, False,
     "the sim keeps its broadcasters active: ['joint_state_broadcaster'] cannot be switched"),
], ids=["unknown_strict", "unknown_best_effort", "unknown_deactivate_default", "already_active_strict",
        "already_active_best_effort", "empty", "broadcaster"])
def test_a_request_that_changes_nothing_answers_as_controller_manager_does(probe, activate, deactivate,
                                                                          strictness, ok, message):
    response = switch(probe, activate, deactivate, strictness)
    assert (response.ok, response.message) == (ok, message)
    assert states(probe)[JTC] == "active"


def test_an_inactive_trajectory_controller_refuses_goals_and_the_arm_holds(probe, sim_node, joint_states, follow):
    response = switch(probe, deactivate=[JTC])
    assert response.ok and response.message == "Successfully switched controllers!", response.message
    try:
        assert states(probe)[JTC] == "inactive"
        held = arm_positions(joint_states)
        handle = probe.wait_future(follow.send_goal_async(goal_to(held + 0.05)), 10.0, "goal response")
        assert not handle.accepted, "an inactive JTC must refuse the goal"
        wait_for_log(sim_node, "Can't accept new action goals. Controller is not running.")
        again = switch(probe, deactivate=[JTC])
        assert not again.ok and "can not be deactivated since it is not active" in again.message
        time.sleep(0.5)
        assert np.abs(arm_positions(joint_states) - held).max() < 2e-3, "no controller: the drives hold"
    finally:
        back = switch(probe, activate=[JTC], strictness=Request.BEST_EFFORT)
    assert back.ok and back.message == ("Successfully switched controllers!\n"
                                        "Activated controllers: [ joint_trajectory_controller ]"), back.message
    start = arm_positions(joint_states)
    handle = probe.wait_future(follow.send_goal_async(goal_to(start + 0.05)), 10.0, "goal response")
    assert handle.accepted
    result = probe.wait_future(handle.get_result_async(), 20.0, "the trajectory result")
    assert result.result.error_code == FollowJointTrajectory.Result.SUCCESSFUL, result.result.error_string
    assert np.abs(arm_positions(joint_states) - (start + 0.05)).max() < 0.01
    home = probe.wait_future(follow.send_goal_async(goal_to(start)), 10.0, "goal response")
    probe.wait_future(home.get_result_async(), 20.0, "the way back")


def test_deactivating_mid_trajectory_aborts_the_goal(probe, joint_states, follow):
    start = arm_positions(joint_states)
    handle = probe.wait_future(follow.send_goal_async(goal_to(start + 0.3, seconds=3.0)), 10.0, "goal response")
    assert handle.accepted
    time.sleep(0.5)
    try:
        assert switch(probe, deactivate=[JTC]).ok
        result = probe.wait_future(handle.get_result_async(), 10.0, "the aborted result")
        assert result.result.error_code == FollowJointTrajectory.Result.INVALID_GOAL
        assert "deactivate" in result.result.error_string
    finally:
        assert switch(probe, activate=[JTC]).ok
    home = probe.wait_future(follow.send_goal_async(goal_to(start, seconds=2.0)), 10.0, "goal response")
    probe.wait_future(home.get_result_async(), 20.0, "the way back")
