"""compliance_server against a real franka_press sim over loopback DDS, real physics: the
server as a client of controller_manager (controller_manager_msgs), of FZI-style controller
topics and parameters, and of the Franka's external wrench.

One sim, one compliance_server and one tree_executor per module (starting them costs
seconds); the tests run in file order on the arm they share: bad goals first (nothing
moves), then a guarded touch and a 10 N press through the action, graded on the sim's
ground truth (contact points), a goal's stiffness set as the controller's parameters and
restored after, then the CompliantMove / SwitchController leaves in trees.
"""
from __future__ import annotations

import math
import time

import numpy as np
import pytest
from geometry_msgs.msg import PoseStamped, WrenchStamped
from paths import TEST_TREES
from rcl_interfaces.srv import GetParameters
from ros_sim_helpers import Recorder, call_service

from controller_manager_msgs.srv import ListControllers
from robot_tasks.control.compliance import PRESS_STIFFNESS
from robot_tasks.control.compliance.compliant_move import along_normal
from robot_tasks.ros.error_codes import code_name
from robot_tasks.sim.scenes.franka_press import wall_frame
from robot_tasks_interfaces.action import CompliantMove, ExecuteTree

pytestmark = [pytest.mark.ros, pytest.mark.sim, pytest.mark.timeout(240)]

WALL = wall_frame()
WALL_PARAMS = {"robot_namespace": "panda", "task_frames": ["wall"],
               "task_frame.wall": [*map(float, WALL.position), *map(float, WALL.quaternion)]}


@pytest.fixture(scope="module")
def nodes(module_launcher):
    sim = module_launcher.start_module("robot_tasks.nodes.sim", name="sim", params={
        "scene": "franka_press", "real_time_factor": 1.0, "camera_rate": 0.0, "object_rate": 0.0})
    server = module_launcher.start_module("robot_tasks.nodes.compliance_server", name="compliance_server",
                                          params=WALL_PARAMS)
    executor = module_launcher.start_module("robot_tasks.nodes.tree_executor", name="tree_executor", params={
        "tree_dirs": [str(TEST_TREES)], "include_default_trees": False})
    return {"sim": sim, "server": server, "executor": executor}


@pytest.fixture(scope="module")
def client(probe, nodes):
    action = probe.create_action_client(CompliantMove, "/compliant_move")
    probe.wait_for(action.server_is_ready, "the compliant_move server", 30.0)
    probe.wait_for_node("sim", timeout=30.0)
    yield action
    probe.destroy_action_clients([action])


@pytest.fixture(scope="module")
def contact(probe, nodes):
    """Ground-truth contact force, as the sim publishes it for grading."""
    return Recorder(probe, WrenchStamped, "/panda/ground_truth/contact_force")


def active(probe) -> list:
    response = call_service(probe, ListControllers, "/panda/controller_manager/list_controllers",
                            ListControllers.Request())
    return [c.name for c in response.controller if c.state == "active" and c.claimed_interfaces]


def stiffness_of(probe, controller: str) -> list:
    names = ["stiffness.trans_x", "stiffness.trans_y", "stiffness.trans_z",
             "stiffness.rot_x", "stiffness.rot_y", "stiffness.rot_z"]
    values = call_service(probe, GetParameters, f"/panda/{controller}/get_parameters",
                          GetParameters.Request(names=names)).values
    return [v.double_value for v in values]


def goal(controller="osc", pose=(0.0, 0.0, -0.03), frame="wall", force=0.0, stiffness=(), **times):
    g = CompliantMove.Goal(controller=controller, stiffness=list(stiffness))
    g.target.header.frame_id = frame
    g.target.pose.position.x, g.target.pose.position.y, g.target.pose.position.z = pose
    g.target.pose.orientation.w = 1.0
    g.wrench.force.z = force
    for key, value in times.items():
        setattr(g, key, value)
    return g


def run(probe, client, g, timeout=30.0):
    feedback = []
    handle = probe.wait_future(client.send_goal_async(g, feedback_callback=lambda m: feedback.append(m.feedback)),
                               10.0, "goal response")
    assert handle.accepted
    result = probe.wait_future(handle.get_result_async(), timeout, "the CompliantMove result").result
    return result, feedback


def nan_pose():
    g = goal()
    g.target.pose.position.y = math.nan
    return g


def unnormalized_pose():
    g = goal()
    o = g.target.pose.orientation
    o.x, o.y, o.z, o.w = 0.0, 0.0, 0.0, 2.0   # length 2: refused, not silently normalized
    return g


@pytest.mark.parametrize("make, words", [
    (nan_pose, "target.pose.position.y is nan"),
    (unnormalized_pose, "target orientation is not normalized: length 2"),
    (lambda: goal("hybrid_press", stiffness=(5000, 1000, 100, 400, 400, 400), force=10.0),
     "stiffness[0] = 5000 is outside its limits [0, 1000]"),
    (lambda: goal(frame="moon"), "unknown frame 'moon'"),
    (lambda: goal(controller="teleport"), "controller 'teleport' is not a compliant controller"),
    (lambda: goal(controller="joint_trajectory_controller"),
     "controller 'joint_trajectory_controller' is not a compliant"),
    (lambda: goal(controller="joint_impedance"), "controller 'joint_impedance' is not a compliant"),
    (lambda: goal(duration=-1.0), "duration must be >= 0"),
], ids=["nan_pose", "unnormalized_pose", "too_stiff", "unknown_frame", "unknown_controller", "trajectory_controller",
        "joint_impedance", "negative_duration"])
def test_a_bad_goal_ends_invalid_goal_with_the_reason_and_nothing_moves(probe, client, nodes, make, words):
    result, _ = run(probe, client, make())
    assert code_name(CompliantMove.Result, result.error_code) == "INVALID_GOAL", result.message
    assert words in result.message, result.message
    for proc in nodes.values():
        assert proc.is_running(), f"{proc.name} died"
    assert active(probe) == ["joint_trajectory_controller"], "a bad goal must not switch"


def test_guarded_touch_then_press_10_newton_along_the_normal(probe, client, contact):
    touch, feedback = run(probe, client, goal("osc", pose=(0.0, 0.0, 0.01), duration=2.0, stop_force=1.0))
    assert touch.error_code == CompliantMove.Result.SUCCESS, touch.message
    assert touch.normal_force >= 1.0 and "contact" in touch.message
    assert feedback and {f.phase for f in feedback} == {"guarded"}
    press, feedback = run(probe, client, goal("hybrid_press", pose=(0.0, 0.0, 0.0), force=10.0,
                                              duration=0.3, hold=1.2))
    assert press.error_code == CompliantMove.Result.SUCCESS, press.message
    assert abs(press.normal_force - 10.0) < 1.0, f"F/T says {press.normal_force:.2f} N"
    assert press.in_plane_error < 5e-3
    assert {"moving", "holding"} <= {f.phase for f in feedback}
    last = contact.snapshot()[-30:]                      # the last 0.3 s, from the contact points
    normal = [along_normal(WALL, (m.wrench.force.x, m.wrench.force.y, m.wrench.force.z)) for m in last]
    assert len(normal) == 30 and np.all(np.abs(np.array(normal) - 10.0) < 1.0), \
        f"contact normal force {min(normal):.2f}..{max(normal):.2f} N"


def test_a_guarded_move_that_meets_nothing_ends_no_contact(probe, client):
    # pressed against the wall: first leave it with osc, then "touch" away from it
    off, _ = run(probe, client, goal("osc", pose=(0.0, 0.0, -0.03), duration=0.8))
    assert off.error_code == CompliantMove.Result.SUCCESS, off.message
    result, _ = run(probe, client, goal("osc", pose=(0.0, 0.0, -0.04), duration=0.4, stop_force=1.0))
    assert code_name(CompliantMove.Result, result.error_code) == "NO_CONTACT", result.message
    assert result.normal_force < 1.0


def test_a_cancelled_move_ends_cancelled_and_the_tool_stays_where_it_was(probe, client):
    targets = Recorder(probe, PoseStamped, "/panda/osc/target_frame")
    tips = Recorder(probe, PoseStamped, "/panda/osc/current_pose")
    handle = probe.wait_future(client.send_goal_async(goal("osc", pose=(0.0, 0.0, -0.10), duration=3.0)),
                               10.0, "goal response")
    tips.wait_for(lambda m: True, "osc active", 5.0)
    time.sleep(0.6)                                  # part of the way: the target is moving
    probe.wait_future(handle.cancel_goal_async(), 10.0, "cancel response")
    result = probe.wait_future(handle.get_result_async(), 10.0, "the cancelled result").result
    assert code_name(CompliantMove.Result, result.error_code) == "CANCELLED", result.message
    time.sleep(0.5)
    last, tip = targets.latest().pose.position, tips.latest().pose.position
    held = np.array([last.x, last.y, last.z]) - np.array([tip.x, tip.y, tip.z])
    assert np.linalg.norm(held) < 3e-3, "after a cancel the target is where the tool is"
    assert result.position_error > 0.02, "it was cancelled on the way, not at the goal"
    assert active(probe) == ["osc"]
    targets.close()
    tips.close()


def test_a_newer_goal_preempts_the_running_one(probe, client):
    first = probe.wait_future(client.send_goal_async(goal("osc", pose=(0.0, 0.02, -0.05), duration=3.0)),
                              10.0, "first goal response")
    time.sleep(0.4)
    second, _ = run(probe, client, goal("osc", pose=(0.0, 0.0, -0.05), duration=0.5, hold=0.2))
    result = probe.wait_future(first.get_result_async(), 10.0, "the first result").result
    assert code_name(CompliantMove.Result, result.error_code) == "PREEMPTED", result.message
    assert second.error_code == CompliantMove.Result.SUCCESS and second.position_error < 3e-3, second.message


def test_a_goals_stiffness_is_set_on_the_controller_and_the_configured_one_restored(probe, client):
    assert stiffness_of(probe, "hybrid_press") == list(PRESS_STIFFNESS)
    soft = (600.0, 600.0, 100.0, 300.0, 300.0, 300.0)
    touch, _ = run(probe, client, goal("osc", pose=(0.0, 0.0, 0.01), duration=2.0, stop_force=1.0))
    assert touch.error_code == CompliantMove.Result.SUCCESS, touch.message
    press, _ = run(probe, client, goal("hybrid_press", pose=(0.0, 0.0, 0.0), force=5.0, stiffness=soft,
                                       duration=0.3, hold=0.3))
    assert press.error_code == CompliantMove.Result.SUCCESS, press.message
    assert stiffness_of(probe, "hybrid_press") == list(soft)
    again, _ = run(probe, client, goal("hybrid_press", pose=(0.0, 0.0, 0.0), force=5.0, duration=0.2))
    assert again.error_code == CompliantMove.Result.SUCCESS, again.message
    assert stiffness_of(probe, "hybrid_press") == list(PRESS_STIFFNESS), "no stiffness: the configured one"
    off, _ = run(probe, client, goal("osc", pose=(0.0, 0.0, -0.04), duration=0.6))
    assert off.error_code == CompliantMove.Result.SUCCESS, off.message


def execute(probe, tree_id: str, timeout: float = 30.0):
    action = probe.create_action_client(ExecuteTree, "/execute_tree")
    try:
        probe.wait_for(action.server_is_ready, "the tree executor", 30.0)
        handle = probe.wait_future(action.send_goal_async(ExecuteTree.Goal(target_tree=tree_id)), 10.0, "goal")
        return probe.wait_future(handle.get_result_async(), timeout, f"the {tree_id} result").result
    finally:
        probe.destroy_action_clients([action])


def test_the_leaves_in_a_tree_move_compliantly_then_switch_back(probe, client):
    result = execute(probe, "CompliantBackOff")
    assert result.node_status == "SUCCESS", result.return_message
    assert active(probe) == ["joint_trajectory_controller"]


def test_a_leaf_with_a_bad_goal_or_switch_fails_naming_the_reason(probe, client, nodes):
    result = execute(probe, "CompliantTooStiff")
    assert result.node_status == "FAILURE"
    assert "INVALID_GOAL" in result.return_message and "stiffness[0]" in result.return_message, \
        result.return_message
    result = execute(probe, "SwitchToNowhere")
    assert result.node_status == "FAILURE", result.return_message
    assert "Could not activate controller with name 'teleport'" in result.return_message, result.return_message
    assert all(proc.is_running() for proc in nodes.values())
