"""The sim node's compliant controllers over real DDS, franka_press scene, real physics:
list_controllers (controller_manager_msgs), a switch to "osc", the osc commanded like FZI's
cartesian_compliance_controller (target_frame, target_wrench, stiffness parameters), its
current_pose feedback, the Franka's external wrench topic, joint_states efforts under torque
control, bad targets dropped, and the trajectory controller ignoring trajectories meanwhile."""
from __future__ import annotations

import math

import numpy as np
import pytest
import yaml
from geometry_msgs.msg import PoseStamped, WrenchStamped
from paths import REPO
from rcl_interfaces.msg import Parameter, ParameterType, ParameterValue
from rcl_interfaces.srv import GetParameters, SetParameters
from rclpy.qos import QoSProfile, ReliabilityPolicy
from ros_sim_helpers import PANDA_ARM, Recorder, call_service, joint_map, trajectory, wait_for_log
from sensor_msgs.msg import JointState

from controller_manager_msgs.srv import ListControllers, SwitchController
from robot_tasks.control.compliance import PRESS_STIFFNESS
from robot_tasks.control.compliance.compliant_move import to_frame
from robot_tasks.sim.scenes.franka_press import wall_frame

pytestmark = [pytest.mark.ros, pytest.mark.sim, pytest.mark.timeout(180)]

SIM_PARAMS = {"scene": "franka_press", "real_time_factor": 1.0, "camera_rate": 0.0, "object_rate": 0.0}
NS = "/panda"
SWITCH, LIST = f"{NS}/controller_manager/switch_controller", f"{NS}/controller_manager/list_controllers"
JTC = "joint_trajectory_controller"
COMPLIANCE = "cartesian_compliance_controller/CartesianComplianceController"
BEST_EFFORT_1 = QoSProfile(depth=1, reliability=ReliabilityPolicy.BEST_EFFORT)
WALL = wall_frame()
GRAPH = REPO / "config" / "franka_press_graph.yaml"


def switch(probe, activate, deactivate=(), strictness=SwitchController.Request.STRICT):
    return call_service(probe, SwitchController, SWITCH, SwitchController.Request(
        activate_controllers=list(activate), deactivate_controllers=list(deactivate), strictness=strictness))


def listing(probe) -> dict:
    response = call_service(probe, ListControllers, LIST, ListControllers.Request())
    return {c.name: c for c in response.controller}


def in_wall(msg) -> np.ndarray:
    p = msg.pose.position
    return to_frame(WALL, (p.x, p.y, p.z))


def target(position_in_wall, frame_id="panda_link0") -> PoseStamped:
    msg = PoseStamped()
    msg.header.frame_id = frame_id
    x, y, z = WALL.position + WALL.rotation @ np.asarray(position_in_wall, float)
    msg.pose.position.x, msg.pose.position.y, msg.pose.position.z = float(x), float(y), float(z)
    o = msg.pose.orientation
    o.x, o.y, o.z, o.w = (float(v) for v in WALL.quaternion)
    return msg


def test_list_controllers_shows_the_bringup_with_types_and_claimed_interfaces(probe):
    controllers = listing(probe)
    assert list(controllers) == ["joint_state_broadcaster", "franka_robot_state_broadcaster", JTC,
                                 "joint_impedance", "osc", "hybrid_press"]
    jtc = controllers[JTC]
    assert jtc.state == "active" and jtc.type == "joint_trajectory_controller/JointTrajectoryController"
    assert list(jtc.claimed_interfaces) == [f"panda_joint{i}/effort" for i in range(1, 8)]
    for name in ("osc", "hybrid_press"):
        c = controllers[name]
        assert (c.state, c.type, list(c.claimed_interfaces)) == ("inactive", COMPLIANCE, [])
        assert list(c.required_command_interfaces) == list(jtc.claimed_interfaces)
    assert controllers["joint_impedance"].type == "robot_tasks/JointImpedanceController"
    assert controllers["franka_robot_state_broadcaster"].state == "active"
    assert jtc.update_rate == 720


def test_the_sim_offers_the_graph_a_real_franka_ros2_installation_offers(probe):
    """config/franka_press_graph.yaml: every service, topic (with its direction and QoS) and
    controller of the real cell's list, on the sim with the same types."""
    graph = yaml.safe_load(GRAPH.read_text())
    ns = "/" + graph["namespace"]
    node = probe.node

    def full(entry):
        return f"{ns}/{entry['name']}"

    services = dict(node.get_service_names_and_types())
    missing = [e["name"] for e in graph["services"] if e["type"] not in services.get(full(e), [])]
    assert not missing, f"services missing or of another type: {missing}"
    for kind, info in (("subscribed", node.get_subscriptions_info_by_topic),
                       ("published", node.get_publishers_info_by_topic)):
        for entry in graph[kind]:
            endpoints = [i for i in info(full(entry)) if i.node_name == "sim"]
            assert endpoints, f"the sim has no {kind} endpoint on {full(entry)}"
            assert {i.topic_type for i in endpoints} == {entry["type"]}, full(entry)
            if "reliability" in entry:
                assert {i.qos_profile.reliability.name.lower() for i in endpoints} == {entry["reliability"]}
    listed = call_service(probe, ListControllers, LIST, ListControllers.Request()).controller
    assert {(c.name, c.type, c.state) for c in listed} == {
        (c["name"], c["type"], c["state"]) for c in graph["controllers"]}


def test_hybrid_press_stiffness_is_a_parameter_of_the_controller(probe):
    names = ["stiffness.trans_x", "stiffness.rot_z", "hand_frame_control", "robot_base_link"]
    values = call_service(probe, GetParameters, f"{NS}/hybrid_press/get_parameters",
                          GetParameters.Request(names=names)).values
    assert [values[0].double_value, values[1].double_value] == [PRESS_STIFFNESS[0], PRESS_STIFFNESS[5]]
    assert values[2].bool_value is True and values[3].string_value == "panda_link0"
    too_stiff = Parameter(name="stiffness.trans_x",
                          value=ParameterValue(type=ParameterType.PARAMETER_DOUBLE, double_value=5000.0))
    read_only = Parameter(name="robot_base_link",
                          value=ParameterValue(type=ParameterType.PARAMETER_STRING, string_value="world"))
    results = call_service(probe, SetParameters, f"{NS}/hybrid_press/set_parameters",
                           SetParameters.Request(parameters=[too_stiff, read_only])).results
    assert not results[0].successful and "stiffness[0] = 5000 is outside its limits" in results[0].reason
    assert not results[1].successful and "read-only" in results[1].reason


def test_osc_commanded_like_a_cartesian_compliance_controller(probe, sim_node):
    joint_states = Recorder(probe, JointState, f"{NS}/joint_states")
    pose = Recorder(probe, PoseStamped, f"{NS}/osc/current_pose")
    wrench = Recorder(probe, WrenchStamped, f"{NS}/franka_robot_state_broadcaster/external_wrench_in_base_frame",
                      qos=BEST_EFFORT_1)
    truth = Recorder(probe, PoseStamped, f"{NS}/ground_truth/tip_pose")
    frame_pub = probe.node.create_publisher(PoseStamped, f"{NS}/osc/target_frame", 10)
    press_pub = probe.node.create_publisher(PoseStamped, f"{NS}/hybrid_press/target_frame", 10)
    probe.wait_for_subscriber(f"{NS}/osc/target_frame")
    try:
        response = switch(probe, ["osc"], [JTC])
        assert response.ok and response.message == "Successfully switched controllers!", response.message
        assert listing(probe)["osc"].state == "active" and listing(probe)[JTC].state == "inactive"
        start = in_wall(pose.latest(timeout=5.0))
        assert pose.latest().header.frame_id == "panda_link0"
        goal = start + np.array([0.02, 0.0, -0.02])           # up the slope and 2 cm off the wall
        for _ in range(3):                                     # a latecomer subscription may miss one
            frame_pub.publish(target(goal))
        pose.wait_for(lambda m: np.linalg.norm(in_wall(m) - goal) < 1.5e-3, "the tip at the target", 8.0)
        assert np.linalg.norm(in_wall(truth.latest()) - goal) < 3e-3     # and the physics agrees
        efforts = np.array(joint_states.latest().effort[:7])
        assert np.abs(efforts).max() > 1.0, "the controller's torques are the arm's efforts (holds gravity)"
        force = wrench.latest(timeout=5.0).wrench.force
        assert wrench.latest().header.frame_id == "panda_link0"
        assert math.hypot(force.x, force.y, force.z) < 1.0, "no contact, tared sensor: ~0 N"
        # bad targets: logged, dropped; the tool stays put
        frame_pub.publish(target(goal + 0.05, frame_id="world"))
        wait_for_log(sim_node, "Got target pose in wrong reference frame. Expected: panda_link0 but got world")
        nan = target(goal)
        nan.pose.position.y = math.nan
        frame_pub.publish(nan)
        wait_for_log(sim_node, "NaN detected in target pose")
        press_pub.publish(target(goal))
        wait_for_log(sim_node, "'hybrid_press' is not active (active: 'osc')")
        # the trajectory controller ignores what comes on its topic while inactive
        q = [joint_map(joint_states.latest())[n] for n in PANDA_ARM]
        traj = probe.node.create_publisher(type(trajectory(PANDA_ARM, [])), f"{NS}/{JTC}/joint_trajectory", 10)
        probe.wait_for_subscriber(f"{NS}/{JTC}/joint_trajectory")
        traj.publish(trajectory(PANDA_ARM, [(q, 1.0)]))
        wait_for_log(sim_node, "inactive: trajectory ignored")
        pose.clear()
        assert np.linalg.norm(in_wall(pose.latest(timeout=3.0)) - goal) < 1.5e-3
    finally:
        back = switch(probe, [JTC], ["osc"], SwitchController.Request.BEST_EFFORT)
        for pub in (frame_pub, press_pub):
            probe.node.destroy_publisher(pub)
        for rec in (joint_states, pose, wrench, truth):
            rec.close()
    assert back.ok and back.message == ("Successfully switched controllers!\nDeactivated controllers: [ osc ]\n"
                                        "Activated controllers: [ joint_trajectory_controller ]"), back.message
    assert listing(probe)[JTC].state == "active"


def test_a_target_wrench_pushes_the_free_tool_along_it(probe):
    """osc renders no wrench itself: the target wrench is added as Jᵀ w, FZI's superposition."""
    pose = Recorder(probe, PoseStamped, f"{NS}/osc/current_pose")
    push = probe.node.create_publisher(WrenchStamped, f"{NS}/osc/target_wrench", 10)
    try:
        assert switch(probe, ["osc"], [JTC]).ok
        start = in_wall(pose.latest(timeout=5.0))
        msg = WrenchStamped()
        msg.header.frame_id = "panda_link0"
        msg.wrench.force.z = 8.0                     # straight up, base axes ...
        call_service(probe, SetParameters, f"{NS}/osc/set_parameters", SetParameters.Request(parameters=[
            Parameter(name="hand_frame_control", value=ParameterValue(type=ParameterType.PARAMETER_BOOL,
                                                                     bool_value=False))]))
        probe.wait_for_subscriber(f"{NS}/osc/target_wrench")
        for _ in range(3):
            push.publish(msg)
        up = WALL.rotation.T @ np.array([0.0, 0.0, 1.0])   # base z in wall axes
        moved = pose.wait_for(lambda m: (in_wall(m) - start) @ up > 2e-3, "the tool pushed up", 8.0)
        assert (in_wall(moved) - start) @ up > 2e-3
    finally:
        assert switch(probe, [JTC], ["osc"]).ok
        probe.node.destroy_publisher(push)
        pose.close()
