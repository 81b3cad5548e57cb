"""The sim node's controller interfaces over real DDS, franka_press scene, real physics:
list/switch services, a compliant controller's command topic (good and bad commands), the
F/T and controller-state topics, joint_states efforts under torque control, and the
trajectory controller rejecting trajectories while a compliant controller drives the arm."""
from __future__ import annotations

import math

import numpy as np
import pytest
from geometry_msgs.msg import PoseStamped, WrenchStamped
from sensor_msgs.msg import JointState
from std_msgs.msg import Float64MultiArray

from robot_tasks.control.compliance.compliant_move import to_frame
from robot_tasks.sim.scenes.franka_press import wall_frame
from robot_tasks_interfaces.msg import CompliantControllerState
from robot_tasks_interfaces.srv import ListControllers, SwitchController
from ros_sim_helpers import PANDA_ARM, Recorder, call_service, joint_map, trajectory, wait_for_log

pytestmark = [pytest.mark.ros, pytest.mark.sim, pytest.mark.timeout(180)]

SIM_PARAMS = {"scene": "franka_press", "real_time_factor": 1.0, "camera_rate": 0.0, "object_rate": 0.0}
NS = "/panda"
SWITCH, LIST = f"{NS}/controller_manager/switch_controller", f"{NS}/controller_manager/list_controllers"
WALL = wall_frame()


@pytest.fixture(scope="module")
def state(probe):
    rec = Recorder(probe, CompliantControllerState, f"{NS}/controller_state")
    rec.latest(timeout=30.0)
    return rec


def switch(probe, activate, deactivate=()):
    return call_service(probe, SwitchController, SWITCH,
                        SwitchController.Request(activate=list(activate), deactivate=list(deactivate)))


def tip_in_wall(msg) -> np.ndarray:
    p = msg.tip.position
    return to_frame(WALL, (p.x, p.y, p.z))


def osc_command(position_in_wall) -> Float64MultiArray:
    """The osc layout (pose_abs, fixed gains) preceded by the wall frame as task frame."""
    return Float64MultiArray(data=[*WALL.position, *WALL.quaternion, *position_in_wall, 0.0, 0.0, 0.0, 1.0])


def test_list_controllers_names_the_layouts_and_the_running_one(probe, state):
    listing = call_service(probe, ListControllers, LIST, ListControllers.Request())
    assert list(listing.names) == ["joint_trajectory", "joint_impedance", "osc", "hybrid_press"]
    assert list(listing.active) == [True, False, False, False]
    layouts = dict(zip(listing.names, listing.command_layout))
    assert layouts == {"joint_trajectory": "", "joint_impedance": "joint_positions", "osc": "pose_abs",
                       "hybrid_press": "pose_abs,wrench_abs,stiffness"}
    assert state.latest().active == "joint_trajectory"


@pytest.mark.parametrize("activate, deactivate, words", [
    (["teleport"], [], "unknown controller"),
    (["osc", "hybrid_press"], [], "cannot activate"),
    (["osc"], ["hybrid_press"], "'joint_trajectory' is the running controller"),
    ([], [], "nothing to activate"),
])
def test_a_bad_switch_is_refused_with_the_reason_and_changes_nothing(probe, state, activate, deactivate, words):
    response = switch(probe, activate, deactivate)
    assert not response.ok and words in response.message, response.message
    listing = call_service(probe, ListControllers, LIST, ListControllers.Request())
    assert list(listing.active)[0], "the trajectory controller must still run"


def test_osc_commanded_over_its_topic_moves_the_tool_and_reports_torques(probe, state, sim_node):
    joint_states = Recorder(probe, JointState, f"{NS}/joint_states")
    ft = Recorder(probe, WrenchStamped, f"{NS}/ft_sensor/wrench")
    truth = Recorder(probe, PoseStamped, f"{NS}/ground_truth/tip_pose")
    pub = probe.node.create_publisher(Float64MultiArray, f"{NS}/osc/command", 10)
    hybrid = probe.node.create_publisher(Float64MultiArray, f"{NS}/hybrid_press/command", 10)
    probe.wait_for_subscriber(f"{NS}/osc/command")
    try:
        response = switch(probe, ["osc"], ["joint_trajectory"])
        assert response.ok and "joint_trajectory -> osc" in response.message, response.message
        msg = state.wait_for(lambda m: m.active == "osc", "osc active", 5.0)
        assert msg.control_rate == pytest.approx(720.0)
        start = tip_in_wall(msg)
        goal = start + np.array([0.02, 0.0, -0.02])           # up the slope and 2 cm off the wall
        for _ in range(3):                                     # a latecomer subscription may miss one
            pub.publish(osc_command(goal))
        reached = state.wait_for(lambda m: np.linalg.norm(tip_in_wall(m) - goal) < 1.5e-3,
                                 "the tip at the commanded target", 8.0)
        p = truth.latest().pose.position                       # and the physics agrees
        assert np.linalg.norm(to_frame(WALL, (p.x, p.y, p.z)) - goal) < 3e-3
        # torques: the controller's applied torques are the arm's measured efforts
        assert len(reached.torque) == 7 and max(abs(t) for t in reached.torque) > 1.0   # holds against gravity
        efforts = joint_states.latest().effort[:7]
        assert np.allclose(efforts, state.latest().torque, atol=2.0)
        force = ft.latest().wrench.force
        assert math.hypot(force.x, force.y, force.z) < 1.0, "no contact, tared sensor: ~0 N"
        # bad commands: logged, dropped, the loop keeps running and the tool stays put
        pub.publish(Float64MultiArray(data=[0.1, 0.2]))
        wait_for_log(sim_node, "expected 7 numbers [pose_abs] (or 7 task-frame numbers + 7), got 2")
        pub.publish(Float64MultiArray(data=[*WALL.position, *WALL.quaternion, math.nan, 0, 0, 0, 0, 0, 1]))
        wait_for_log(sim_node, "rejected osc command")
        hybrid.publish(Float64MultiArray(data=[0.0] * 19))
        wait_for_log(sim_node, "'hybrid_press' is not active (active: 'osc')")
        # the trajectory controller refuses to fight the torque loop
        q = [joint_map(joint_states.latest())[n] for n in PANDA_ARM]
        traj = probe.node.create_publisher(type(trajectory(PANDA_ARM, [])),
                                           f"{NS}/joint_trajectory_controller/joint_trajectory", 10)
        probe.wait_for_subscriber(f"{NS}/joint_trajectory_controller/joint_trajectory")
        traj.publish(trajectory(PANDA_ARM, [(q, 1.0)]))
        wait_for_log(sim_node, "rejected trajectory")
        state.clear()
        later = state.latest(timeout=3.0)
        assert later.active == "osc" and np.linalg.norm(tip_in_wall(later) - goal) < 1.5e-3
    finally:
        back = switch(probe, ["joint_trajectory"])
        probe.node.destroy_publisher(pub)
        probe.node.destroy_publisher(hybrid)
        for rec in (joint_states, ft, truth):
            rec.close()
    assert back.ok and "osc -> joint_trajectory" in back.message, back.message
    assert state.wait_for(lambda m: m.active == "joint_trajectory", "trajectory control", 5.0)
    assert len(state.latest().torque) == 0
