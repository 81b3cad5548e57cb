"""The sim node over real DDS with the franka_stacking scene: clock, joint states, the
robot description, trajectories (good and bad), the hand (franka_gripper), camera, perturb
and reset."""
from __future__ import annotations

import math
import time

import numpy as np
import pytest
from geometry_msgs.msg import Pose, PoseStamped
from rclpy.qos import QoSProfile, ReliabilityPolicy
from ros_sim_helpers import LATCHED, PANDA_ARM, Recorder, call_service, joint_map, trajectory, wait_for_log
from rosgraph_msgs.msg import Clock
from sensor_msgs.msg import CameraInfo, Image, JointState
from std_msgs.msg import String
from trajectory_msgs.msg import JointTrajectory
from visualization_msgs.msg import MarkerArray

from robot_tasks_interfaces.msg import ObjectStateArray
from robot_tasks_interfaces.srv import PerturbObject, ResetScene

pytestmark = [pytest.mark.ros, pytest.mark.sim]

SIM_PARAMS = {"scene": "franka_stacking", "seed": 0, "real_time_factor": 1.0,
              "camera_rate": 2.0, "camera_width": 200, "camera_height": 150}
TRAJ_TOPIC = "/panda/joint_trajectory_controller/joint_trajectory"


@pytest.fixture(scope="module")
def joint_states(probe):
    rec = Recorder(probe, JointState, "/panda/joint_states")
    rec.latest(timeout=20.0)
    return rec


@pytest.fixture(scope="module")
def objects(probe):
    return Recorder(probe, ObjectStateArray, "/objects", keep=50)


def arm_positions(js) -> np.ndarray:
    m = joint_map(js)
    return np.array([m[n] for n in PANDA_ARM])


def wait_still(probe, joint_states, timeout: float = 5.0) -> np.ndarray:
    """Wait until the arm has stopped moving (velocities ~0); return its positions."""
    js = joint_states.wait_for(lambda m: max(abs(v) for v in m.velocity[:7]) < 1e-3,
                               "the arm at rest", timeout)
    return arm_positions(js)


def test_joint_states_and_clock_flow_at_their_rates(probe, joint_states):
    best_effort = QoSProfile(depth=200, reliability=ReliabilityPolicy.BEST_EFFORT)   # as /clock is sent
    clock = Recorder(probe, Clock, "/clock", qos=best_effort)
    clock.latest()
    joint_states.clear()
    clock.clear()
    time.sleep(1.0)                                   # real_time_factor 1: ~1 sim second
    js, ticks = joint_states.snapshot(), clock.snapshot()
    # loose bounds: a loaded machine may run the sim a little behind real time
    assert 40 <= len(js) <= 160, f"{len(js)} joint_states in ~1 s at 100 Hz"
    assert 40 <= len(ticks) <= 160, f"{len(ticks)} /clock messages in ~1 s at 100 Hz"
    times = [c.clock.sec + c.clock.nanosec * 1e-9 for c in ticks]
    assert all(b > a for a, b in zip(times, times[1:])), "/clock is not strictly increasing"
    span = times[-1] - times[0]
    assert 0.4 < span < 1.6, f"sim time advanced {span:.2f} s in ~1 wall second at rtf 1"
    last = js[-1]
    assert list(last.name) == PANDA_ARM + ["panda_finger_joint1", "panda_finger_joint2"]
    assert len(last.position) == len(last.velocity) == len(last.effort) == 9
    assert all(math.isfinite(v) for v in last.position)
    clock.close()


def test_robot_description_is_latched_and_parses_with_pinocchio(probe):
    import pinocchio as pin

    rec = Recorder(probe, String, "/panda/robot_description", qos=LATCHED)
    xml = rec.latest(timeout=10.0).data              # subscribed long after it was published
    model = pin.buildModelFromXML(xml)
    assert model.nq == 9
    assert model.existFrame("panda_grasptarget")
    rec.close()


def test_trajectory_moves_the_arm_to_its_goal(probe, joint_states):
    start = arm_positions(joint_states.latest())
    goal = start + np.array([0.3, 0.2, 0.0, 0.2, 0.0, -0.2, 0.0])
    pub = probe.node.create_publisher(JointTrajectory, TRAJ_TOPIC, 10)
    probe.wait_for_subscriber(TRAJ_TOPIC)
    pub.publish(trajectory(PANDA_ARM, [(start + (goal - start) / 2, 0.5), (goal, 1.0)]))
    msg = joint_states.wait_for(lambda js: np.max(np.abs(arm_positions(js) - goal)) < 0.01,
                                "the arm at the trajectory's goal", timeout=10.0)
    assert np.max(np.abs(arm_positions(msg) - goal)) < 0.01
    probe.node.destroy_publisher(pub)


@pytest.mark.parametrize("case, expected", [
    ("nan", "positions contain NaN or inf"),
    ("limit", "panda_joint4=1.0000 outside limits"),
    ("names", "unknown joint names ['elbow']"),
    ("times", "is not after the previous point"),
])
def test_bad_trajectory_is_rejected_with_the_reason_and_the_arm_stays(probe, joint_states, sim_node,
                                                                     case, expected):
    before = wait_still(probe, joint_states)
    bad = before.copy()
    names = list(PANDA_ARM)
    points = [(bad + 0.3, 1.0)]
    if case == "nan":
        bad[2] = float("nan")
        points = [(bad, 1.0)]
    elif case == "limit":
        bad[3] = 1.0
        points = [(bad, 1.0)]
    elif case == "names":
        names[3] = "elbow"
    elif case == "times":
        points = [(before + 0.1, 1.0), (before + 0.2, 0.5)]
    pub = probe.node.create_publisher(JointTrajectory, TRAJ_TOPIC, 10)
    probe.wait_for_subscriber(TRAJ_TOPIC)
    pub.publish(trajectory(names, points))
    log = wait_for_log(sim_node, expected)
    assert "joint_trajectory_controller/joint_trajectory: " in log and "(trajectory ignored)" in log
    time.sleep(0.3)
    after = arm_positions(joint_states.latest())
    assert np.max(np.abs(after - before)) < 1e-3, "a rejected trajectory moved the arm"
    probe.node.destroy_publisher(pub)


def test_franka_gripper_moves_the_fingers(probe, joint_states):
    """The hand is franka_gripper's (its rules: test/nodes/gripper_server/test_franka_gripper_driver.py)."""
    from franka_msgs.action import Move

    client = probe.create_action_client(Move, "/panda/franka_gripper/move")
    probe.wait_for_action_server(Move, "/panda/franka_gripper/move", 20.0, client=client)

    def width(js):
        m = joint_map(js)
        return m["panda_finger_joint1"] + m["panda_finger_joint2"]

    for target in (0.0, 0.06):
        sent = probe.run_on_executor(lambda: client.send_goal_async(Move.Goal(width=target, speed=0.1)), "move sent")
        handle = probe.wait_future(sent, 10.0, "move accepted")
        result = probe.wait_future(probe.run_on_executor(handle.get_result_async, "result asked"), 10.0, "move result")
        assert result.result.success, result.result.error
        joint_states.wait_for(lambda js: abs(width(js) - target) < 0.003, f"fingers {target * 100:g} cm apart", 5.0)
    probe.destroy_action_clients([client])


def test_camera_topics_have_consistent_sizes_and_intrinsics(probe):
    rgb = Recorder(probe, Image, "/camera/image_raw", keep=3)
    depth = Recorder(probe, Image, "/camera/depth/image_raw", keep=3)
    info = Recorder(probe, CameraInfo, "/camera/camera_info", keep=3)
    pose = Recorder(probe, PoseStamped, "/camera/pose", qos=LATCHED)
    img, dep, cam = rgb.latest(10.0), depth.latest(10.0), info.latest(10.0)
    assert (img.width, img.height, img.encoding, img.step) == (200, 150, "rgb8", 600)
    assert len(img.data) == 200 * 150 * 3
    assert (dep.width, dep.height, dep.encoding, dep.step) == (200, 150, "32FC1", 800)
    d = np.frombuffer(bytes(dep.data), dtype="<f4").reshape(150, 200)
    assert 0.3 < float(np.median(d)) < 3.0, "depth should be metres to the table"
    assert (cam.width, cam.height) == (200, 150)
    K = np.array(cam.k).reshape(3, 3)
    assert K[0, 0] == pytest.approx(K[1, 1]) and K[0, 0] > 0
    assert abs(K[0, 2] - 100) <= 1.0 and abs(K[1, 2] - 75) <= 1.5, "principal point near the centre"
    assert list(cam.p)[:3] == [K[0, 0], 0.0, K[0, 2]]
    assert img.header.frame_id == dep.header.frame_id == cam.header.frame_id == "camera_optical_frame"
    cam_pose = pose.latest(5.0)
    assert cam_pose.header.frame_id == "world" and cam_pose.pose.position.z > 1.0
    for rec in (rgb, depth, info, pose):
        rec.close()


def _xy(objects_msg, name):
    obj = next(o for o in objects_msg.objects if o.name == name)
    return np.array([obj.pose.position.x, obj.pose.position.y, obj.pose.position.z])


def test_perturb_drags_a_cube_and_reset_restores_the_seeded_scene(probe, objects):
    ok = call_service(probe, ResetScene, "/reset_scene", ResetScene.Request(seed=0))
    assert ok.success, ok.message
    time.sleep(0.6)                                   # settle; objects at 10 Hz
    first = objects.latest()
    start = _xy(first, "red_cube")
    others = [_xy(first, o.name)[:2] for o in first.objects if o.name != "red_cube"]
    target = next(np.array([x, y]) for x in (0.45, 0.55, 0.65) for y in (-0.3, 0.0, 0.3)
                  if all(np.linalg.norm(np.array([x, y]) - o) > 0.12 for o in others)
                  and np.linalg.norm(np.array([x, y]) - start[:2]) > 0.1)
    pose = Pose()
    pose.position.x, pose.position.y, pose.position.z = float(target[0]), float(target[1]), 0.651
    pose.orientation.w = 1.0
    res = call_service(probe, PerturbObject, "/perturb_object",
                       PerturbObject.Request(object_name="red_cube", mode="DRAG", target=pose))
    assert res.success, res.message
    objects.wait_for(lambda m: np.linalg.norm(_xy(m, "red_cube")[:2] - target) < 0.01,
                     "red_cube at the drag target", timeout=5.0)

    other = call_service(probe, ResetScene, "/reset_scene", ResetScene.Request(seed=7))
    assert other.success, other.message
    objects.wait_for(lambda m: np.linalg.norm(_xy(m, "red_cube")[:2] - start[:2]) > 0.01,
                     "seed 7 placing red_cube elsewhere", timeout=5.0)
    back = call_service(probe, ResetScene, "/reset_scene", ResetScene.Request(seed=0))
    assert back.success and "seed 0" in back.message, back.message
    objects.wait_for(lambda m: np.linalg.norm(_xy(m, "red_cube") - start) < 0.003,
                     "seed 0 restoring red_cube's pose", timeout=5.0)


def test_bad_perturb_requests_fail_with_a_reason(probe):
    res = call_service(probe, PerturbObject, "/perturb_object",
                       PerturbObject.Request(object_name="no_such_cube", mode="DRAG", target=Pose()))
    assert not res.success and "no_such_cube" in res.message
    res = call_service(probe, PerturbObject, "/perturb_object",
                       PerturbObject.Request(object_name="red_cube", mode="SHAKE", target=Pose()))
    assert not res.success and "unknown mode 'SHAKE'" in res.message
    res = call_service(probe, PerturbObject, "/perturb_object",
                       PerturbObject.Request(object_name="red_cube", mode="DROP", target=Pose()))
    assert not res.success and "nothing holds red_cube" in res.message


def test_object_markers_are_latched_one_box_per_object(probe, objects):
    rec = Recorder(probe, MarkerArray, "/object_markers", qos=LATCHED)
    markers = rec.wait_for(lambda m: any(k.action == 0 for k in m.markers), "object markers", 10.0)
    names = {o.name for o in objects.latest().objects}
    boxes = [m for m in markers.markers if m.action == 0]
    assert {m.text for m in boxes} == names
    assert all(m.header.frame_id == "world" and m.scale.x > 0 for m in boxes)
    rec.close()


def test_a_node_with_use_sim_time_follows_the_sim_clock(probe):
    import rclpy
    from rclpy.parameter import Parameter

    timed = rclpy.create_node("uses_sim_time", context=probe.context,
                              parameter_overrides=[Parameter("use_sim_time", value=True)])
    probe.executor.add_node(timed)
    try:
        probe.wait_for(lambda: timed.get_clock().now().nanoseconds > 0, "sim time to arrive", 10.0)
        t0 = timed.get_clock().now().nanoseconds * 1e-9
        time.sleep(0.5)
        t1 = timed.get_clock().now().nanoseconds * 1e-9
        assert 0.1 < t1 - t0 < 1.5, f"sim time advanced {t1 - t0:.3f} s in 0.5 wall s at rtf 1"
        assert t1 < 1e6, "the node reads wall-clock time, not /clock"
    finally:
        probe.executor.remove_node(timed)
        timed.destroy_node()


def test_perturb_knock_pushes_a_cube_toward_the_target(probe, objects):
    assert call_service(probe, ResetScene, "/reset_scene", ResetScene.Request(seed=-1)).success
    time.sleep(0.3)
    start = _xy(objects.latest(), "green_cube")
    pose = Pose()
    pose.position.x, pose.position.y, pose.position.z = float(start[0]), float(start[1] + 0.3), float(start[2])
    res = call_service(probe, PerturbObject, "/perturb_object",
                       PerturbObject.Request(object_name="green_cube", mode="KNOCK", target=pose))
    assert res.success and "knocked green_cube" in res.message, res.message
    objects.wait_for(lambda m: _xy(m, "green_cube")[1] - start[1] > 0.03, "green_cube pushed along +y", 5.0)


def _stamp(msg) -> float:
    return msg.header.stamp.sec + msg.header.stamp.nanosec * 1e-9


def test_trajectory_stamped_in_the_future_starts_at_its_stamp(probe, joint_states):
    # Runs after resets, so it also checks the stamp -> world time mapping across them.
    start = wait_still(probe, joint_states)
    goal = start + np.array([-0.2, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0])
    now = joint_states.latest().header.stamp
    begin = now.sec + now.nanosec * 1e-9 + 1.0                    # sim time, 1 s from now
    msg = trajectory(PANDA_ARM, [(goal, 0.5)])
    msg.header.stamp.sec, msg.header.stamp.nanosec = int(begin), int((begin % 1) * 1e9)
    pub = probe.node.create_publisher(JointTrajectory, TRAJ_TOPIC, 10)
    probe.wait_for_subscriber(TRAJ_TOPIC)
    pub.publish(msg)
    reached = joint_states.wait_for(lambda js: np.max(np.abs(arm_positions(js) - goal)) < 0.01,
                                    "the arm at the goal", timeout=8.0)
    assert _stamp(reached) > begin + 0.3, "the arm got there before the stamp plus most of the duration"
    before = [js for js in joint_states.snapshot() if begin - 0.8 < _stamp(js) < begin - 0.02]
    assert len(before) > 20, "too few joint_states recorded before the stamp"
    moved = max(np.max(np.abs(arm_positions(js) - start)) for js in before)
    assert moved < 1e-3, f"the arm moved {moved:.4f} rad before the trajectory's stamp"
    probe.node.destroy_publisher(pub)
