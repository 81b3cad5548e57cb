"""Collision checking and RRT-Connect planning around box obstacles."""
import numpy as np
import pytest

from robot_tasks.control import (
    ArmKinematics,
    Box,
    CollisionChecker,
    IkConfig,
    IkSolver,
    InputError,
    Pose,
    first_invalid_state,
    interpolate_path,
    plan_joint_path,
    plan_to_pose,
)

DOWN = [1.0, 0.0, 0.0, 0.0]  # tool z axis pointing down (180 degrees about x)


def _checker(spec, kin, obstacles):
    return CollisionChecker.from_urdf_file(kin, spec.urdf_path, spec.package_dirs, obstacles)


def _solve(kin, home, position, checker):
    result = IkSolver(kin, IkConfig(method="dls", restarts=8)).solve(Pose(position, DOWN), home)
    assert result.success, result.reason
    assert checker.is_valid(result.q), checker.describe(result.q)
    return result.q


def _assert_path_is_free(checker, plan, q_start, q_goal):
    assert plan.success, plan.reason
    np.testing.assert_array_equal(plan.path[0], q_start)
    np.testing.assert_array_equal(plan.path[-1], q_goal)
    for q in plan.path:
        assert checker.is_valid(q), checker.describe(q)
    # Every state the controller would be sent, at the 0.006 rad command resolution.
    for q in interpolate_path(plan.path):
        assert checker.is_valid(q), checker.describe(q)


@pytest.fixture(scope="module")
def panda_scene(panda):
    spec, kin = panda
    table = Box("table", (1.6, 1.6, 0.04), Pose([0.3, 0.0, -0.025]))
    wall = Box("wall", (0.3, 0.04, 0.5), Pose([0.5, 0.0, 0.25]))
    return spec, kin, _checker(spec, kin, [table, wall])


def test_checker_sees_obstacles_and_self_collision(panda_scene):
    spec, kin, checker = panda_scene
    home = np.array(spec.home)
    assert checker.is_valid(home)
    assert set(checker.obstacle_names) == {"table", "wall"}
    # Tip pushed into the table: the first colliding pair names a link and the table.
    low = _solve(kin, home, [0.4, -0.3, 0.3], checker)
    into_table = IkSolver(kin, IkConfig(restarts=0)).solve(Pose([0.4, -0.3, -0.05], DOWN), low)
    assert into_table.success
    assert not checker.is_valid(into_table.q)
    assert "table" in checker.describe(into_table.q)
    # Elbow folded onto the base: self-collision (no obstacle involved).
    folded = np.array([0.0, 1.7, 0.0, -3.0, 0.0, 0.0, 0.0])
    verdict = checker.describe(folded)
    assert verdict != "valid" and "table" not in verdict and "wall" not in verdict


def test_outside_limits_is_invalid(panda_scene):
    spec, kin, checker = panda_scene
    q = np.array(spec.home)
    q[3] = 0.3
    assert not checker.is_valid(q)
    assert "joint limits" in checker.describe(q)


def test_rrt_connect_goes_around_a_wall(panda_scene):
    spec, kin, checker = panda_scene
    home = np.array(spec.home)
    q_start = _solve(kin, home, [0.45, -0.3, 0.15], checker)
    q_goal = _solve(kin, home, [0.45, 0.3, 0.15], checker)
    # The straight joint-space line is blocked, so this really needs the planner.
    assert first_invalid_state(checker, [q_start, q_goal]) is not None
    plan = plan_joint_path(checker, q_start, q_goal, time_limit=5.0)
    assert plan.reason == "planned", plan.reason
    _assert_path_is_free(checker, plan, q_start, q_goal)


def test_plan_to_pose(panda_scene):
    spec, kin, checker = panda_scene
    home = np.array(spec.home)
    q_start = _solve(kin, home, [0.45, -0.3, 0.15], checker)
    target = Pose([0.45, 0.3, 0.15], DOWN)
    plan = plan_to_pose(checker, q_start, target, time_limit=5.0)
    _assert_path_is_free(checker, plan, q_start, plan.goal)
    assert np.linalg.norm(kin.fk(plan.goal).position - target.position) <= 1e-4


def test_invalid_start_or_goal_fails_with_the_pair_named(panda_scene):
    spec, kin, checker = panda_scene
    home = np.array(spec.home)
    folded = np.array([0.0, 1.7, 0.0, -3.0, 0.0, 0.0, 0.0])
    plan = plan_joint_path(checker, folded, home, time_limit=1.0)
    assert not plan.success and plan.path.shape == (0, 7)
    assert plan.reason.startswith("start configuration invalid:") and "touches" in plan.reason
    plan = plan_joint_path(checker, home, folded, time_limit=1.0)
    assert not plan.success and plan.reason.startswith("goal configuration invalid:")
    with pytest.raises(InputError):
        plan_joint_path(checker, home, [np.nan] * 7)
    with pytest.raises(InputError, match="time_limit"):
        plan_joint_path(checker, home, home, time_limit=0)


def test_ur10_plans_over_a_pallet(ur10):
    spec, kin = ur10
    floor = Box("floor", (3.0, 3.0, 0.04), Pose([0.0, 0.0, -0.03]))
    pallet = Box("pallet", (0.3, 0.6, 0.5), Pose([0.8, 0.0, 0.25]))
    checker = _checker(spec, kin, [floor, pallet])
    home = np.array(spec.home)
    assert checker.is_valid(home), checker.describe(home)
    q_start = _solve(kin, home, [0.6, -0.6, 0.25], checker)
    q_goal = _solve(kin, home, [0.6, 0.6, 0.25], checker)
    assert first_invalid_state(checker, [q_start, q_goal]) is not None
    plan = plan_joint_path(checker, q_start, q_goal, time_limit=5.0)
    _assert_path_is_free(checker, plan, q_start, q_goal)


# A two-link planar arm whose first link cannot pass two posts: start and goal lie in
# different free regions, so no path exists and the planner must say so.
PLANAR_ARM = """<robot name="planar">
  <link name="base"/>
  <link name="link1"><collision><origin xyz="0.25 0 0"/><geometry><box size="0.5 0.04 0.04"/></geometry></collision></link>
  <link name="link2"><collision><origin xyz="0.25 0 0"/><geometry><box size="0.5 0.04 0.04"/></geometry></collision></link>
  <link name="tip"/>
  <joint name="j1" type="revolute"><parent link="base"/><child link="link1"/><axis xyz="0 0 1"/>
    <limit lower="-3.0" upper="3.0" effort="1" velocity="1"/></joint>
  <joint name="j2" type="revolute"><parent link="link1"/><child link="link2"/><origin xyz="0.5 0 0"/>
    <axis xyz="0 0 1"/><limit lower="-2.5" upper="2.5" effort="1" velocity="1"/></joint>
  <joint name="tip_joint" type="fixed"><parent link="link2"/><child link="tip"/><origin xyz="0.5 0 0"/></joint>
</robot>"""


def test_planner_reports_failure_when_no_path_exists():
    kin = ArmKinematics.from_urdf_string(PLANAR_ARM, "tip")
    posts = [Box(f"post{i}", (0.05, 0.05, 0.3), Pose([0.0, s * 0.3, 0.0]))
             for i, s in enumerate((1, -1))]
    checker = CollisionChecker.from_urdf_string(kin, PLANAR_ARM, obstacles=posts)
    start, goal = np.array([0.0, 0.5]), np.array([3.0, 0.0])
    assert checker.is_valid(start) and checker.is_valid(goal)
    plan = plan_joint_path(checker, start, goal, time_limit=0.5)
    assert not plan.success
    assert "no path" in plan.reason and plan.path.shape == (0, 2)
    # The same arm plans fine once a post is removed.
    open_checker = CollisionChecker.from_urdf_string(kin, PLANAR_ARM, obstacles=posts[1:])
    plan = plan_joint_path(open_checker, start, goal, time_limit=2.0)
    _assert_path_is_free(open_checker, plan, start, goal)


def test_bad_obstacles_raise(panda):
    spec, kin = panda
    with pytest.raises(InputError, match="positive"):
        Box("flat", (1.0, 0.0, 1.0), Pose([0, 0, 0]))
    with pytest.raises(InputError, match="already used"):
        _checker(spec, kin, [Box("a", (1, 1, 1), Pose([2, 0, 0])),
                             Box("a", (1, 1, 1), Pose([3, 0, 0]))])
