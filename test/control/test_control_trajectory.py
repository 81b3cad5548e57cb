"""time_parameterize: strictly increasing times from 0 and no joint faster than its scaled limit."""
import numpy as np
import pytest

from robot_tasks.control import InputError, interpolate_joints, make_trajectory, time_parameterize


@pytest.mark.parametrize("scaling", [1.0, 0.5, 0.1])
def test_velocity_limits_times_scaling_are_honored(ur10, scaling):
    spec, kin = ur10
    path = interpolate_joints(spec.home, np.array(spec.home) + [0.8, -0.3, 0.5, 0.0, 1.2, -2.0])
    traj = time_parameterize(path, kin.velocity_limits, scaling, joint_names=kin.joint_names)
    times = np.array(traj.time_from_start)
    pos = np.array(traj.positions)
    assert traj.joint_names == list(kin.joint_names)
    assert times[0] == 0.0 and np.all(np.diff(times) > 0)
    speeds = np.abs(np.diff(pos, axis=0)) / np.diff(times)[:, None]
    assert np.all(speeds <= kin.velocity_limits * scaling * (1 + 1e-9))
    # The slowest joint runs at its limit, so the duration is as short as allowed.
    assert traj.duration == pytest.approx(2.0 / (3.2 * scaling), rel=1e-6)
    vel = np.array(traj.velocities)
    assert np.all(vel[0] == 0) and np.all(vel[-1] == 0)
    assert np.all(np.abs(vel) <= kin.velocity_limits * scaling * (1 + 1e-9))


def test_standing_still_still_has_increasing_times():
    traj = time_parameterize([[0.0, 1.0]] * 3, [1.0, 1.0], min_segment_time=0.01)
    assert traj.time_from_start == pytest.approx([0.0, 0.01, 0.02])


@pytest.mark.parametrize("kwargs, message", [
    ({"velocity_scaling": 0.0}, "velocity_scaling"),
    ({"velocity_scaling": 1.5}, "velocity_scaling"),
    ({"velocity_limits": [1.0]}, "entries"),
    ({"velocity_limits": [1.0, -1.0]}, "positive"),
    ({"joint_names": ["a"]}, "joint names"),
])
def test_bad_inputs_raise(kwargs, message):
    args = {"path": [[0.0, 0.0], [0.1, 0.1]], "velocity_limits": [1.0, 1.0]}
    args.update(kwargs)
    with pytest.raises(InputError, match=message):
        time_parameterize(**args)


@pytest.mark.parametrize("ramp_time", [0.3, 5.0])
def test_ramped_profile_starts_slow_and_respects_limits(ur10, ramp_time):
    """0.3 s: trapezoid (long path); 5 s: the path is too short to reach full speed."""
    spec, kin = ur10
    path = interpolate_joints(spec.home, np.array(spec.home) + [1.0, 0, 0, 0, 0, 0])
    plain = time_parameterize(path, kin.velocity_limits, 0.5)
    ramped = time_parameterize(path, kin.velocity_limits, 0.5, ramp_time=ramp_time)
    times = np.array(ramped.time_from_start)
    pos = np.array(ramped.positions)
    assert times[0] == 0.0 and np.all(np.diff(times) > 0)
    speeds = np.abs(np.diff(pos[:, 0])) / np.diff(times)
    limit = kin.velocity_limits[0] * 0.5
    assert np.all(speeds <= limit * (1 + 1e-9))
    assert speeds[0] < 0.2 * limit and speeds[-1] < 0.2 * limit  # no velocity step
    if ramp_time < plain.duration:
        # Trapezoid: cruise at full speed, the ramps cost exactly one ramp_time in total.
        assert ramped.duration == pytest.approx(plain.duration + ramp_time, rel=1e-9)
        assert np.max(speeds) == pytest.approx(limit, rel=1e-6)
    else:
        assert np.max(speeds) < limit


def test_make_trajectory_bounds_steps_and_speeds(panda):
    spec, kin = panda
    waypoints = [spec.home, np.array(spec.home) + 0.4, np.array(spec.home) - 0.2]
    traj = make_trajectory(waypoints, kin.joint_names, kin.velocity_limits, 0.3, ramp_time=0.2)
    pos = np.array(traj.positions)
    times = np.array(traj.time_from_start)
    np.testing.assert_array_equal(pos[0], spec.home)
    np.testing.assert_array_equal(pos[-1], waypoints[-1])
    assert np.all(np.abs(np.diff(pos, axis=0)) <= 0.006)
    assert np.all(np.abs(np.diff(pos, axis=0)) / np.diff(times)[:, None]
                  <= kin.velocity_limits * 0.3 * (1 + 1e-9))
