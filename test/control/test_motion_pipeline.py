"""The servers' pure logic, without ROS: goal checks, frames, planning, gripper judgement."""
import math
import subprocess
import sys
from dataclasses import replace
from types import SimpleNamespace

import numpy as np
import pytest

from robot_tasks.control import ArmKinematics, Pose, interpolation, panda_spec, ur10_spec
from robot_tasks.control.motion_errors import ErrorCode, MotionFailure
from robot_tasks.control.motion_pipeline import MotionPlanner, PlannerSettings
from robot_tasks.control.motion_request import (
    FrameMap,
    Motion,
    MotionDefaults,
    joint_request,
    pose_distance,
    pose_request,
)
from robot_tasks.control.robot_defaults import ROBOT_DEFAULTS, SettingsError, obstacles_in_base, pose_from_list
from robot_tasks.ros.joint_state_cache import JointStateCache, PollGaps

DOWN = (1.0, 0.0, 0.0, 0.0)
PANDA_FRAMES = FrameMap("panda_link0", Pose([0.0, 0.0, 0.625]))
# The arm server's parameter defaults (declared in nodes/arm_server/parameters.py), as a test's own values.
DEFAULTS = MotionDefaults(position_tolerance=0.005, orientation_tolerance=0.02, joint_tolerance=0.005,
                          velocity_scaling=0.5, timeout=30.0)
PLANNER = PlannerSettings(ik_method="dls", ik_restarts=8, max_dq=0.006, min_steps=40, ramp_time=0.2,
                          planning_time=2.0, cartesian_step=0.005)


def failure_of(fn, *args, **kwargs) -> MotionFailure:
    with pytest.raises(MotionFailure) as info:
        fn(*args, **kwargs)
    return info.value


@pytest.fixture(scope="module")
def panda():
    spec = panda_spec()
    kin = ArmKinematics.from_spec(spec)
    d = ROBOT_DEFAULTS["panda"]
    boxes = obstacles_in_base(d["obstacle_names"], d["obstacle_sizes"], d["obstacle_poses"],
                              PANDA_FRAMES)
    from robot_tasks.control import CollisionChecker
    checker = CollisionChecker.from_urdf_file(kin, spec.urdf_path, spec.package_dirs, boxes)
    return kin, MotionPlanner(kin, PLANNER, lambda: checker), checker, spec


# ------------------------------------------------------------------ goal checks
def test_world_goal_is_expressed_in_the_base_frame():
    req = pose_request("world", [0.5, 0.1, 0.9], DOWN, Motion.FREE, PANDA_FRAMES, DEFAULTS)
    assert np.allclose(req.target_in_base.position, [0.5, 0.1, 0.275])
    assert req.frame_id == "world"
    assert req.position_tolerance == DEFAULTS.position_tolerance
    same = pose_request("", [0.5, 0.1, 0.9], DOWN, Motion.FREE, PANDA_FRAMES, DEFAULTS)
    assert np.allclose(same.target_in_base.position, req.target_in_base.position)
    base = pose_request("panda_link0", [0.5, 0.1, 0.9], DOWN, Motion.CARTESIAN, PANDA_FRAMES, DEFAULTS,
                        position_tolerance=0.01, velocity_scaling=1.0)
    assert np.allclose(base.target_in_base.position, [0.5, 0.1, 0.9])
    assert (base.position_tolerance, base.velocity_scaling) == (0.01, 1.0)


def test_frame_map_round_trip_with_a_rotated_base():
    frames = FrameMap("base", Pose([1.0, 2.0, 0.5], [0.0, 0.0, math.sin(0.4), math.cos(0.4)]))
    pose = Pose([0.3, -0.2, 0.7], [0.1, 0.2, 0.3, 0.9])
    back = frames.from_base(frames.to_base(pose, "world"), "world")
    dp, angle = pose_distance(pose, back)
    assert dp < 1e-12 and angle < 1e-9


@pytest.mark.parametrize("args, code, words", [
    (("world", [math.nan, 0, 1], DOWN, Motion.FREE), ErrorCode.INVALID_GOAL, "NaN"),
    (("world", [0, 0, 1], (0, 0, 0, 0), Motion.FREE), ErrorCode.INVALID_GOAL, "zero quaternion"),
    (("world", [0, 0, 1], (0, 0, 0, 2), Motion.FREE), ErrorCode.INVALID_GOAL, "not normalized: length 2"),
    (("world", [0, 0, 1], (1, 1, 0, 0), Motion.FREE), ErrorCode.INVALID_GOAL, "not normalized: length 1.414"),
    (("tool0", [0, 0, 1], DOWN, Motion.FREE), ErrorCode.INVALID_FRAME, "'tool0'"),
    (("world", [0, 0, 1], DOWN, 3), ErrorCode.INVALID_GOAL, "motion 3"),
])
def test_bad_pose_requests(args, code, words):
    failure = failure_of(pose_request, *args, PANDA_FRAMES, DEFAULTS)
    assert failure.code == code and words in failure.message


@pytest.mark.parametrize("field, value", [("position_tolerance", -0.1), ("timeout", math.inf),
                                          ("velocity_scaling", 1.01), ("orientation_tolerance",
                                                                       math.nan)])
def test_bad_numbers_in_pose_requests(field, value):
    failure = failure_of(pose_request, "world", [0.4, 0, 1], DOWN, Motion.FREE, PANDA_FRAMES, DEFAULTS,
                         **{field: value})
    assert failure.code == ErrorCode.INVALID_GOAL and field in failure.message


def test_joint_request_reorders_and_checks_limits():
    names = ["b", "a"]
    req = joint_request(names, [0.2, 0.1], ["a", "b"], [-1, -1], [1, 1], DEFAULTS)
    assert req.positions.tolist() == [0.1, 0.2] and req.goal_order == ("b", "a")
    assert "outside its limits" in failure_of(joint_request, ["a", "b"], [0, 2], ["a", "b"],
                                              [-1, -1], [1, 1], DEFAULTS).message
    assert "unknown: ['c']" in failure_of(joint_request, ["a", "c"], [0, 0], ["a", "b"],
                                          [-1, -1], [1, 1], DEFAULTS).message


# ------------------------------------------------------------------ settings
def test_obstacles_and_base_pose_parameters():
    boxes = obstacles_in_base(["t"], [1, 1, 0.1], [0.5, 0, 0.6, 0, 0, 0, 1], PANDA_FRAMES)
    assert np.allclose(boxes[0].pose.position, [0.5, 0.0, -0.025])
    with pytest.raises(SettingsError, match="1 names need 3 obstacle_sizes"):
        obstacles_in_base(["t"], [1, 1], [0, 0, 0, 0, 0, 0, 1], PANDA_FRAMES)
    with pytest.raises(SettingsError, match="world_T_base"):
        pose_from_list([0, 0, 0, 0, 0, 0, 0], "world_T_base")
    with pytest.raises(SettingsError, match="obstacle 't'"):
        obstacles_in_base(["t"], [1, -1, 1], [0, 0, 0, 0, 0, 0, 1], PANDA_FRAMES)


def test_joint_state_cache_names_what_is_missing_or_stale():
    now = [100.0]
    cache = JointStateCache(clock=lambda: now[0])
    cache.update(SimpleNamespace(name=["a", "b"], position=[1.0, math.nan], velocity=[],
                                 effort=[]))
    assert cache.positions(["a"]).tolist() == [1.0]
    assert "no ['b']" in failure_of(cache.positions, ["a", "b"]).message
    now[0] += 2.0
    failure = failure_of(cache.positions, ["a"], max_age=1.0)
    assert failure.code == ErrorCode.NO_JOINT_STATES and "older than 1 s" in failure.message
    assert "the last came 2.00 s ago" in failure.message


def test_a_reader_that_stalled_gets_one_poll_before_it_may_call_the_driver_silent():
    """A loaded machine starves the reader, not only the driver: its first poll after a
    long gap must not judge, the next one must."""
    now = [0.0]
    cache = JointStateCache(clock=lambda: now[0])
    polls = PollGaps(clock=lambda: now[0])
    cache.update(SimpleNamespace(name=["a"], position=[1.0], velocity=[], effort=[]))
    assert polls.max_age(1.0) == 1.0           # first poll: no gap to judge
    now[0] += 1.5                              # the reader itself was away 1.5 s
    assert cache.positions(["a"], polls.max_age(1.0)).tolist() == [1.0]
    assert polls.stalls == 1
    cache.update(SimpleNamespace(name=["a"], position=[2.0], velocity=[], effort=[]))
    last_message = now[0]
    now[0] += 0.05                             # the queued message was taken: fresh again
    assert cache.positions(["a"], polls.max_age(1.0)).tolist() == [2.0]
    for _ in range(30):                        # the driver goes silent, the reader polls on
        now[0] += 0.05
        limit = polls.max_age(1.0)
        if now[0] - last_message > 1.0:
            assert failure_of(cache.positions, ["a"], limit).code == ErrorCode.NO_JOINT_STATES
            break
        cache.positions(["a"], limit)
    else:
        pytest.fail("a silent driver was never reported")
    assert polls.stalls == 1 and cache.newest_age() == pytest.approx(now[0] - last_message)


# ------------------------------------------------------------------ planning
def _check_trajectory(kin, traj, q0, settings=PLANNER):
    pts = np.array(traj.positions)
    assert np.allclose(pts[0], q0)
    assert interpolation.max_joint_step(pts) <= settings.max_dq
    assert np.all(np.diff(traj.time_from_start) > 0)
    return pts


def test_free_plan_ends_on_the_target(panda):
    kin, planner, _, spec = panda
    q0 = np.array(spec.home)
    req = pose_request("world", [0.5, -0.2, 0.9], DOWN, Motion.FREE, PANDA_FRAMES, DEFAULTS)
    pts = _check_trajectory(kin, planner.plan_pose(q0, req), q0)
    dp, angle = pose_distance(kin.fk(pts[-1]), req.target_in_base)
    assert dp < 1e-3 and angle < 1e-2


def test_velocity_scaling_stretches_the_trajectory(panda):
    kin, planner, _, spec = panda
    q0 = np.array(spec.home)
    fast = pose_request("world", [0.5, -0.2, 0.9], DOWN, Motion.FREE, PANDA_FRAMES, DEFAULTS,
                        velocity_scaling=1.0)
    slow = pose_request("world", [0.5, -0.2, 0.9], DOWN, Motion.FREE, PANDA_FRAMES, DEFAULTS,
                        velocity_scaling=0.25)
    for req in (fast, slow):  # no joint faster than its scaled URDF limit on any segment
        traj = planner.plan_pose(q0, req)
        pts, t = np.array(traj.positions), np.array(traj.time_from_start)
        speed = np.abs(np.diff(pts, axis=0)) / np.diff(t)[:, None]
        assert np.all(speed <= kin.velocity_limits * req.velocity_scaling * (1 + 1e-9))
    # the fixed 0.2 s speed ramps keep the ratio below 4
    assert planner.plan_pose(q0, slow).duration > 2.5 * planner.plan_pose(q0, fast).duration


def test_cartesian_plan_is_a_straight_line(panda):
    kin, planner, _, spec = panda
    q0 = np.array(spec.home)
    start = kin.fk(q0).position
    goal = start + [0.0, 0.0, -0.2]
    req = pose_request("panda_link0", goal, kin.fk(q0).quaternion, Motion.CARTESIAN, PANDA_FRAMES,
                       DEFAULTS)
    pts = _check_trajectory(kin, planner.plan_pose(q0, req), q0)
    xy = np.array([kin.fk(q).position[:2] for q in pts[::5]])
    assert np.max(np.linalg.norm(xy - start[:2], axis=1)) < 0.002


def test_planned_path_is_collision_free(panda):
    kin, planner, checker, spec = panda
    q0 = np.array(spec.home)
    req = pose_request("world", [0.55, 0.35, 0.69], DOWN, Motion.PLANNED, PANDA_FRAMES, DEFAULTS)
    pts = _check_trajectory(kin, planner.plan_pose(q0, req), q0)
    assert all(checker.is_valid(q) for q in pts[::3])


def test_unreachable_and_blocked_targets(panda):
    kin, planner, _, spec = panda
    q0 = np.array(spec.home)
    far = pose_request("world", [2.0, 0.0, 0.9], DOWN, Motion.FREE, PANDA_FRAMES, DEFAULTS)
    assert failure_of(planner.plan_pose, q0, far).code == ErrorCode.UNREACHABLE
    in_table = pose_request("world", [0.5, 0.0, 0.55], DOWN, Motion.PLANNED, PANDA_FRAMES, DEFAULTS)
    failure = failure_of(planner.plan_pose, q0, in_table)
    assert failure.code in (ErrorCode.PLANNING_FAILED, ErrorCode.UNREACHABLE)
    assert "table" in failure.message or "IK" in failure.message


def test_ur10_free_plan():
    spec = ur10_spec()
    kin = ArmKinematics.from_spec(spec)
    planner = MotionPlanner(kin, PLANNER)
    frames = FrameMap("world", Pose([0.0, 0.0, 0.5]))  # the spec's base frame is the root
    q0 = np.array(spec.home)
    req = pose_request("world", [0.6, 0.3, 1.0], DOWN, Motion.FREE, frames, DEFAULTS)
    pts = _check_trajectory(kin, planner.plan_pose(q0, req), q0)
    assert pose_distance(kin.fk(pts[-1]), req.target_in_base)[0] < 1e-3


def test_pure_modules_import_without_ros():
    code = ("import sys; import robot_tasks.control.motion_request, "
            "robot_tasks.control.motion_pipeline, robot_tasks.control.robot_defaults, "
            "robot_tasks.ros.joint_state_cache, robot_tasks.control.gripper_logic; "
            "bad = [m for m in sys.modules if m.startswith(('rclpy', 'pybullet'))]; "
            "assert not bad, bad")
    subprocess.run([sys.executable, "-c", code], check=True)


# ------------------------------------------------------------------ BOUNDED motion
def bounded_request(position, max_dq=0.0, min_steps=0):
    return pose_request("world", position, DOWN, Motion.BOUNDED, PANDA_FRAMES, DEFAULTS,
                        max_dq=max_dq, min_steps=min_steps)


@pytest.mark.parametrize("field, value", [("max_dq", -0.01), ("max_dq", math.nan), ("max_dq", math.inf),
                                          ("min_steps", -1)])
def test_bounded_goal_fields_are_checked(field, value):
    failure = failure_of(bounded_request, [0.5, 0.0, 0.9], **{field: value})
    assert failure.code == ErrorCode.INVALID_GOAL and field in failure.message


def test_bounded_goal_defaults_come_from_the_server():
    req = bounded_request([0.5, 0.0, 0.9])
    assert (req.max_dq, req.min_steps) == (DEFAULTS.max_dq, DEFAULTS.min_steps)


def test_bounded_motion_is_equal_steps_within_max_dq_then_a_hold(panda):
    kin, planner, _, _ = panda
    q0 = np.array([0.0, -0.3, 0.0, -2.2, 0.0, 1.9, 0.785])
    start = kin.fk(q0)
    target = (start.position + np.array([0.0, 0.0, 0.625 + 0.12])).tolist()   # 12 cm up, in world
    traj = planner.plan_pose(q0, bounded_request(target, max_dq=0.004, min_steps=40))
    q = np.array(traj.positions)
    goal = q[-1]
    n = max(40, math.ceil(float(np.max(np.abs(goal - q0))) / 0.004))
    assert len(q) == n + 1                     # q_1 .. q_n, then the hold point
    steps = np.abs(np.diff(np.vstack([q0, q[:-1]]), axis=0))
    assert steps.max() <= 0.004
    expected = q0 + (goal - q0) * (np.arange(1, n + 1)[:, None] / n)
    assert np.allclose(q[:-1], expected, atol=1e-12)
    times = np.diff([0.0] + traj.time_from_start)
    assert times[:-1].min() >= PLANNER.command_period - 1e-12
    assert times[-1] == pytest.approx(PLANNER.bounded_hold_time)
    assert all(v == [] for v in traj.velocities)      # positions only: the controller interpolates linearly


def test_bounded_commands_sampled_per_control_step_stay_within_max_dq(panda):
    """What the sim's trajectory controller commands at each control step (linear interpolation
    from its current command) never moves a joint more than max_dq between two steps."""
    from robot_tasks.sim.trajectory import Interpolator

    kin, planner, _, _ = panda
    q0 = np.array([0.0, -0.3, 0.0, -2.2, 0.0, 1.9, 0.785])
    target = (kin.fk(q0).position + np.array([0.05, -0.25, 0.625 + 0.05])).tolist()
    traj = planner.plan_pose(q0, replace(bounded_request(target, max_dq=0.006, min_steps=40),
                                         velocity_scaling=1.0))
    interp = Interpolator([0.0] + traj.time_from_start, [q0.tolist()] + traj.positions)
    dt = PLANNER.command_period
    samples = np.array([interp.sample(k * dt)[0] for k in range(int(interp.duration / dt) + 2)])
    assert np.abs(np.diff(samples, axis=0)).max() <= 0.006 + 1e-12
    assert np.abs(np.diff(samples, axis=0)).max() > 0.003   # full speed: the bound is what limits it
