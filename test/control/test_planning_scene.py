"""Run-time obstacles: the set that replaces itself (planning_scene.runtime_boxes) and what
PLANNED does with it (CollisionChecker.set_runtime_obstacles, MotionPlanner)."""
import math

import numpy as np
import pytest

from robot_tasks.control import (
    Box,
    CollisionChecker,
    IkConfig,
    IkSolver,
    InputError,
    Pose,
    first_invalid_state,
    interpolate_path,
    plan_joint_path,
)
from robot_tasks.control.motion_errors import ErrorCode, MotionFailure
from robot_tasks.control.motion_pipeline import MotionPlanner, PlannerSettings
from robot_tasks.control.motion_request import FrameMap, Motion, MotionDefaults, pose_request
from robot_tasks.control.planning_scene import ObstacleEntry, runtime_boxes

DOWN = (1.0, 0.0, 0.0, 0.0)
FRAMES = FrameMap("panda_link0", Pose([0.0, 0.0, 0.625]))
TABLE = Box("table", (1.6, 1.6, 0.04), Pose([0.3, 0.0, -0.025]))
# A box standing between y = -0.3 and y = +0.3 in front of the arm (base frame).
BLOCK = Box("bowl", (0.3, 0.04, 0.5), Pose([0.5, 0.0, 0.25]))
DEFAULTS = MotionDefaults(position_tolerance=0.005, orientation_tolerance=0.02, joint_tolerance=0.005,
                          velocity_scaling=0.5, timeout=30.0)
PLANNER = PlannerSettings(ik_method="dls", ik_restarts=8, max_dq=0.006, min_steps=40, ramp_time=0.2,
                          planning_time=4.0, cartesian_step=0.005)


def entry(name="bowl", position=(0.5, 0.2, 0.7), quaternion=(0, 0, 0, 1), size=(0.2, 0.2, 0.1)):
    return ObstacleEntry(name, position, quaternion, size)


# ------------------------------------------------------------------ the set, validated
def test_a_world_box_is_expressed_in_the_base_frame():
    (box,) = runtime_boxes([entry()], "world", FRAMES)
    assert box.name == "bowl" and box.size == (0.2, 0.2, 0.1)
    np.testing.assert_allclose(box.pose.position, [0.5, 0.2, 0.075])
    (same,) = runtime_boxes([entry()], "panda_link0", FRAMES)
    np.testing.assert_allclose(same.pose.position, [0.5, 0.2, 0.7])
    assert runtime_boxes([], "world", FRAMES) == []


@pytest.mark.parametrize("bad, frame, words", [
    (entry(position=(math.nan, 0.2, 0.7)), "world", ["'bowl'", "NaN"]),
    (entry(quaternion=(0, 0, 0, math.inf)), "world", ["'bowl'", "orientation"]),
    (entry(quaternion=(1, 1, 0, 0)), "world", ["'bowl'", "not normalized"]),
    (entry(size=(0.2, 0.0, 0.1)), "world", ["'bowl'", "positive"]),
    (entry(size=(0.2, -0.1, 0.1)), "world", ["'bowl'", "positive"]),
    (entry(), "camera_link", ["'cup', 'bowl'", "camera_link"]),
    (entry(name=""), "world", ["#1", "empty"]),
    (entry(name="table"), "world", ["'table'", "static"]),
    (entry(name="cup"), "world", ["'cup'", "twice"]),
])
def test_a_bad_entry_refuses_the_whole_set_naming_the_object(bad, frame, words):
    good = [entry(name="cup", position=(0.4, -0.2, 0.7))]
    with pytest.raises(InputError) as info:
        runtime_boxes(good + [bad], frame, FRAMES, reserved=("table",))
    for word in words:
        assert word in str(info.value), str(info.value)


# ------------------------------------------------------------------ the checker
@pytest.fixture(scope="module")
def scene(panda):
    spec, kin = panda
    checker = CollisionChecker.from_urdf_file(kin, spec.urdf_path, spec.package_dirs, [TABLE])
    ik = IkSolver(kin, IkConfig(method="dls", restarts=8))
    home = np.array(spec.home)
    q_start = ik.solve(Pose([0.45, -0.3, 0.15], DOWN), home).q
    q_goal = ik.solve(Pose([0.45, 0.3, 0.15], DOWN), home).q
    yield spec, kin, checker, q_start, q_goal
    checker.set_runtime_obstacles([])


def test_a_run_time_box_blocks_the_direct_path_and_is_planned_around(scene):
    _, _, checker, q_start, q_goal = scene
    checker.set_runtime_obstacles([])
    direct = plan_joint_path(checker, q_start, q_goal, time_limit=2.0)
    assert direct.success and direct.reason == "direct path is free"
    assert direct.path.shape == (2, 7)

    checker.set_runtime_obstacles([BLOCK])
    assert checker.obstacle_names == ["table", "bowl"]
    assert first_invalid_state(checker, [q_start, q_goal]) is not None
    # the planner returns as soon as it has a path; the limit only matters on a loaded
    # machine (5 s ran out with two bench streams and the suite on 2 cores)
    around = plan_joint_path(checker, q_start, q_goal, time_limit=20.0)
    assert around.success and around.reason == "planned", around.reason
    for q in interpolate_path(around.path):
        assert checker.is_valid(q), checker.describe(q)

    checker.set_runtime_obstacles([])     # the set is replaced, not added to
    assert checker.obstacle_names == ["table"]
    assert plan_joint_path(checker, q_start, q_goal).reason == "direct path is free"


def test_a_bad_set_leaves_the_previous_one(scene):
    _, _, checker, q_start, q_goal = scene
    checker.set_runtime_obstacles([BLOCK])
    pairs = checker.pair_count
    for bad in ([Box("table", (0.1, 0.1, 0.1), Pose([0.5, 0.0, 0.3]))],
                [BLOCK, Box("bowl", (0.1, 0.1, 0.1), Pose([0.5, 0.0, 0.3]))],
                ["not a box"]):
        with pytest.raises(InputError):
            checker.set_runtime_obstacles(bad)
        assert checker.obstacle_names == ["table", "bowl"] and checker.pair_count == pairs
    assert first_invalid_state(checker, [q_start, q_goal]) is not None
    checker.set_runtime_obstacles([])


# ------------------------------------------------------------------ PLANNED goals
def test_planned_goals_avoid_the_run_time_set(scene):
    spec, kin, checker, q_start, _ = scene
    planner = MotionPlanner(kin, PLANNER, lambda: checker)
    target = pose_request("panda_link0", [0.45, 0.3, 0.15], DOWN, Motion.PLANNED, FRAMES, DEFAULTS)
    assert len(planner.plan_pose(q_start, target).positions) > 2

    planner.set_runtime_obstacles([BLOCK])
    path = planner.plan_pose(q_start, target).positions
    reference = CollisionChecker.from_urdf_file(kin, spec.urdf_path, spec.package_dirs,
                                                [TABLE, BLOCK], padding=0.0)
    assert all(reference.is_valid(q) for q in path), "the executed path crosses the box"
    assert first_invalid_state(reference, [q_start, path[-1]]) is not None, \
        "the straight path would have been clear: the test proves nothing"

    # A box around the target itself: no collision-free goal, PLANNING_FAILED naming it.
    planner.set_runtime_obstacles([Box("bowl", (0.2, 0.2, 0.2), Pose([0.45, 0.3, 0.15]))])
    with pytest.raises(MotionFailure) as info:
        planner.plan_pose(q_start, target)
    assert info.value.code == ErrorCode.PLANNING_FAILED and "bowl" in info.value.message
    planner.set_runtime_obstacles([])
    checker.set_runtime_obstacles([])


def test_a_path_failing_the_re_check_is_planned_again(scene, monkeypatch):
    """CI under load, 2026-12-04: RRT-Connect's path around the bowl failed the dense
    re-check ("panda_rightfinger_0 touches bowl"), and the goal failed although another
    path was there to find. The first re-check is made to fail here; a fresh plan must
    then succeed, itself re-checked."""
    from robot_tasks.control import planning

    _, _, checker, q_start, q_goal = scene
    checker.set_runtime_obstacles([BLOCK])
    real, calls = planning.first_invalid_state, []

    def fail_the_first_planned_path(chk, path, step=0.01):
        calls.append(len(path))
        if len(calls) == 2:                 # call 1: the direct path; call 2: the first plan
            return np.asarray(path[len(path) // 2])
        return real(chk, path, step)

    monkeypatch.setattr(planning, "first_invalid_state", fail_the_first_planned_path)
    around = planning.plan_joint_path(checker, q_start, q_goal, time_limit=20.0)
    assert around.success and around.reason == "planned", around.reason
    # the direct path, the failed plan, then fresh plans until one passes its own re-check (the
    # next one usually does; under load a fresh RRT-Connect path can fail it too: seen once)
    assert 3 <= len(calls) <= 1 + planning.RECHECK_ATTEMPTS, calls
    monkeypatch.setattr(planning, "first_invalid_state", lambda chk, path, step=0.01: np.asarray(path[-1]))
    failed = planning.plan_joint_path(checker, q_start, q_goal, time_limit=20.0)
    assert not failed.success and failed.reason.endswith(f"({planning.RECHECK_ATTEMPTS} attempts)"), failed.reason
    checker.set_runtime_obstacles([])
