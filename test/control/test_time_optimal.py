"""Time-optimal, jerk-limited trajectories (control.time_optimal) and the limit checker
(control.trajectory_check): new trajectories stay within every limit, the old velocity-only
ones do not, and the checker measures what the controller's interpolation does."""
import numpy as np
import pytest

from robot_tasks.control import (
    InputError,
    JointLimits,
    TimedTrajectory,
    cartesian_line,
    check_trajectory,
    default_limits_path,
    interpolate_path,
    load_limits_file,
    make_trajectory,
)

TOL = 1e-6


def _limits(spec, kin):
    robot = "panda" if "panda" in kin.joint_names[0] else "ur10"
    return JointLimits.combine(kin.joint_names, kin.velocity_limits,
                               load_limits_file(default_limits_path(robot)))


def _paths(spec, kin, seed=3):
    """A joint goal (straight line), a three-waypoint 'planned' path with a corner, and a
    Cartesian descent of 15 cm."""
    rng = np.random.default_rng(seed)
    home = np.array(spec.home)
    goal = np.clip(home + rng.uniform(-0.8, 0.8, kin.dof), kin.lower + 0.1, kin.upper - 0.1)
    via = np.clip(home + rng.uniform(-0.8, 0.8, kin.dof), kin.lower + 0.1, kin.upper - 0.1)
    pose = kin.fk(home)
    line = cartesian_line(kin, home, pose.position - np.array([0.0, 0.0, 0.15]), pose.quaternion)
    assert line.success
    return {"joint": [home, goal], "planned": [home, via, goal], "cartesian": line.path}


@pytest.mark.parametrize("scaling", [(1.0, 1.0), (0.5, 0.5), (0.3, 0.1)])
def test_new_trajectories_stay_within_every_limit(arm, scaling):
    spec, kin = arm
    limits = _limits(spec, kin)
    for kind, waypoints in _paths(spec, kin).items():
        traj = make_trajectory(waypoints, kin.joint_names, kin.velocity_limits, scaling[0],
                               limits=limits, acceleration_scaling=scaling[1])
        report = check_trajectory(traj, limits.scaled(*scaling))
        assert report.interpolation == "quintic"
        assert report.within(TOL), (kind, report.worst())
        times = np.asarray(traj.time_from_start)
        assert times[0] == 0.0 and np.all(np.diff(times) > 0)
        pos = np.asarray(traj.positions)
        assert np.allclose(pos[0], waypoints[0]) and np.allclose(pos[-1], waypoints[-1])
        for field in (traj.velocities, traj.accelerations):  # starts and ends at rest
            assert np.allclose(field[0], 0.0) and np.allclose(field[-1], 0.0, atol=1e-9)
        # Time-optimal: some limit is (nearly) reached. Not exactly 1 where a second TOPP-RA
        # pass lowered the limits by the first pass's overshoot at a sharp bend.
        assert report.worst()[0] > 0.85, (kind, report.worst())


def test_old_velocity_only_trajectories_fail_the_check(arm):
    spec, kin = arm
    limits = _limits(spec, kin)
    for kind, waypoints in _paths(spec, kin).items():
        old = make_trajectory(waypoints, kin.joint_names, kin.velocity_limits, 0.5, ramp_time=0.2)
        report = check_trajectory(old, limits.scaled(0.5, 0.5))
        assert not report.within(TOL), kind
        assert report.worst_of("jerk") > 2.0, (kind, report.worst())


def test_straight_lines_stay_on_the_line(panda):
    spec, kin = panda
    limits = _limits(spec, kin)
    q0, q1 = np.array(spec.home), np.array(spec.home) + 0.4
    traj = make_trajectory([q0, q1], kin.joint_names, kin.velocity_limits, limits=limits)
    frac = (np.asarray(traj.positions) - q0) / (q1 - q0)
    assert np.allclose(frac, frac[:, :1], atol=1e-12)
    assert np.all(np.diff(frac[:, 0]) >= -1e-12)


def test_planned_path_is_followed_closely(panda):
    """The spline through the dense path stays within a fraction of a point spacing of it."""
    spec, kin = panda
    limits = _limits(spec, kin)
    waypoints = _paths(spec, kin)["planned"]
    dense = interpolate_path(waypoints, 0.006, 40)
    traj = make_trajectory(waypoints, kin.joint_names, kin.velocity_limits, limits=limits)
    pos = np.asarray(traj.positions)
    # distance of each sent point to the polyline of the dense path
    seg0, seg1 = dense[:-1], dense[1:]
    d = seg1 - seg0
    t = np.clip(np.einsum("psj,sj->ps", pos[:, None, :] - seg0[None], d) / np.sum(d * d, axis=1), 0, 1)
    nearest = seg0[None] + t[..., None] * d[None]
    dist = np.min(np.linalg.norm(pos[:, None, :] - nearest, axis=2), axis=1)
    assert dist.max() < 0.006


def test_standing_still_gives_a_short_hold(panda):
    spec, kin = panda
    limits = _limits(spec, kin)
    traj = make_trajectory([spec.home, spec.home], kin.joint_names, kin.velocity_limits, limits=limits)
    assert np.allclose(traj.positions, spec.home) and traj.duration > 0
    assert check_trajectory(traj, limits).within(TOL)


# ------------------------------------------------------------------ the checker itself
LIM = JointLimits(("a",), np.array([1.0]), np.array([2.0]), np.array([10.0]))


def test_checker_cubic_segment_is_exact():
    """Rest to rest in 1 s over 1 rad with one cubic: v peak 1.5, a 6 at the ends, jerk -12;
    the start and end are acceleration steps 6 -> 6 / T of jerk."""
    traj = TimedTrajectory(["a"], [[0.0], [1.0]], [[0.0], [0.0]], [0.0, 1.0])
    report = check_trajectory(traj, LIM, control_period=0.01)
    assert report.interpolation == "cubic"
    assert report.velocity[0] == pytest.approx(1.5)
    assert report.acceleration[0] == pytest.approx(3.0)
    assert report.jerk[0] == pytest.approx(max(12.0, 6.0 / 0.01) / 10.0)


def test_checker_linear_velocity_steps_count_per_control_period():
    traj = TimedTrajectory(["a"], [[0.0], [0.5], [1.0]], [[], [], []], [0.0, 1.0, 1.5])
    report = check_trajectory(traj, LIM, control_period=0.01)
    assert report.interpolation == "linear"
    assert report.velocity[0] == pytest.approx(1.0)
    assert report.acceleration[0] == pytest.approx(1.0 / 0.01 / 2.0)   # 0 -> 1 rad/s at the end


def test_checker_quintic_rest_to_rest_peaks():
    """Minimum-jerk 0 -> 1 in 1 s: v peak 1.875, a peak 10/sqrt(3), jerk peak 60."""
    traj = TimedTrajectory(["a"], [[0.0], [1.0]], [[0.0], [0.0]], [0.0, 1.0], [[0.0], [0.0]])
    report = check_trajectory(traj, JointLimits(("a",), [1.0], [1.0], [1.0]))
    assert report.velocity[0] == pytest.approx(1.875)
    assert report.acceleration[0] == pytest.approx(10 / np.sqrt(3))
    assert report.jerk[0] == pytest.approx(60.0)


def test_limits_files_and_merging(panda, ur10):
    for robot, (spec, kin) in (("panda", panda), ("ur10", ur10)):
        file_limits = load_limits_file(default_limits_path(robot))
        merged = JointLimits.combine(kin.joint_names, kin.velocity_limits, file_limits)
        assert file_limits.source
        assert np.all(merged.velocity <= kin.velocity_limits + 1e-12)
        assert np.all(merged.acceleration > 0) and np.all(merged.jerk > 0)
    with pytest.raises(InputError):
        JointLimits.combine(["x"], [1.0], file_limits)
    with pytest.raises(InputError):
        file_limits.scaled(0.0, 1.0)


def test_a_trajectory_survives_its_message_s_nanosecond_times(ur10):
    """time_from_start goes out in whole nanoseconds. A tiny correction move (0.1 mrad, from
    a palletizing episode) has two of Ruckig's phase switches 19 µs apart; sampled at both
    and then rounded by the message, that interval's quintic read as 62 times the jerk
    limit. Now the points sit on whole nanoseconds, none closer than a fifth of the sample
    period, and the trajectory the controller gets is the one that was checked."""
    spec, kin = ur10
    limits = _limits(spec, kin)
    q0 = np.array([0.0001, -1.9001, 1.9, -1.5709, -1.571, -0.0001])
    q1 = q0 + np.array([-0.000126, 5.1e-05, 1.6e-05, -9e-05, 4e-06, 0.000124])
    traj = make_trajectory([q0, q1], kin.joint_names, kin.velocity_limits, 0.5, limits=limits,
                           acceleration_scaling=0.5)
    ticks = np.asarray(traj.time_from_start) * 1e9
    assert np.allclose(ticks, np.round(ticks), rtol=0, atol=1e-6)
    assert np.min(np.diff(traj.time_from_start)) >= 0.01 / 5 - 1e-9
    as_sent = TimedTrajectory(traj.joint_names, traj.positions, traj.velocities,
                              [int(n) // 10**9 + (int(n) % 10**9) * 1e-9 for n in np.round(ticks)],
                              traj.accelerations)
    assert check_trajectory(as_sent, limits.scaled(0.5, 0.5)).within(TOL)
