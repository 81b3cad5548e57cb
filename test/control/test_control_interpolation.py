"""Bounded-increment interpolation: no two consecutive targets differ by more than max_dq,
checked exactly in floating point, including the edge cases."""
import math

import numpy as np
import pytest

from robot_tasks.control import InputError, interpolate_joints, interpolate_path, max_joint_step, step_count


def _assert_bounded(points, q0, q1, max_dq):
    points = np.asarray(points)
    assert np.array_equal(points[0], np.asarray(q0, dtype=float))
    assert np.array_equal(points[-1], np.asarray(q1, dtype=float))
    assert np.all(np.abs(np.diff(points, axis=0)) <= max_dq)  # exact, no tolerance


def test_step_count_formula():
    assert step_count([0.0], [0.0]) == 40                      # min_steps floor
    assert step_count([0.0], [0.006 * 40]) == 40
    assert step_count([0.0], [0.006 * 41 + 1e-9]) == 42
    assert step_count([0, 0], [1.0, -3.0], max_dq=0.01, min_steps=5) == 300
    assert step_count([0.0], [1.0], max_dq=0.3, min_steps=1) == 4


def test_defaults_are_0006_and_40_steps():
    points = interpolate_joints([0.0] * 7, [0.01] * 7)
    assert len(points) == 41  # 40 steps plus the start row
    _assert_bounded(points, [0.0] * 7, [0.01] * 7, 0.006)


def test_zero_motion_gives_min_steps_identical_rows():
    q = [0.3, -1.2, 0.5]
    points = interpolate_joints(q, q)
    assert points.shape == (41, 3)
    assert np.all(points == np.array(q))
    assert max_joint_step(points) == 0.0


def test_one_joint():
    points = interpolate_joints([1.0], [2.5], max_dq=0.006)
    assert points.shape[1] == 1
    # The formula gives 250 steps of exactly 0.006 rad, but rounding of 1.0 + i * 0.006
    # makes some difference exceed 0.006 by an ulp, so one step is added: never fewer.
    n = step_count([1.0], [2.5])
    assert n == math.ceil(1.5 / 0.006) == 250
    assert n <= len(points) - 1 <= n + 1
    _assert_bounded(points, [1.0], [2.5], 0.006)


def test_huge_motion():
    q0, q1 = [0.0, -50.0, 3.0], [100.0, 50.0, 3.0]
    points = interpolate_joints(q0, q1)
    assert len(points) - 1 >= math.ceil(100.0 / 0.006)
    _assert_bounded(points, q0, q1, 0.006)


def test_exact_multiples_and_random_pairs_hold_the_bound_exactly():
    """Adversarial float cases: |dq| an exact multiple of max_dq, odd magnitudes, offsets."""
    rng = np.random.default_rng(0)
    cases = [([0.1], [0.1 + 0.006 * 1000]), ([-3.0], [-3.0 + 0.006 * 77]),
             ([1e3], [1e3 + 0.6]), ([0.0, 0.0], [0.006 * 40, -0.006 * 40])]
    for _ in range(300):
        dof = int(rng.integers(1, 8))
        scale = 10.0 ** rng.uniform(-4, 2)
        cases.append((rng.uniform(-7, 7, dof), rng.uniform(-7, 7, dof) * scale))
    for q0, q1 in cases:
        for max_dq in (0.006, 0.001, 0.1, 1.0 / 3.0):
            _assert_bounded(interpolate_joints(q0, q1, max_dq=max_dq), q0, q1, max_dq)


def test_path_densification_keeps_waypoints_and_bound():
    waypoints = np.array([[0.0, 0.0], [0.5, -0.2], [0.5, -0.2], [0.2, 1.0]])
    dense = interpolate_path(waypoints, max_dq=0.006)
    _assert_bounded(dense, waypoints[0], waypoints[-1], 0.006)
    for w in waypoints:
        assert np.any(np.all(dense == w, axis=1))
    short = interpolate_path([[0.0], [0.001], [0.002]], max_dq=0.006, min_steps=40)
    assert len(short) - 1 >= 40
    _assert_bounded(short, [0.0], [0.002], 0.006)
    single = interpolate_path([[0.4, 0.1]])
    assert single.shape == (41, 2)


@pytest.mark.parametrize("args, kwargs, message", [
    (([0.0], [1.0]), {"max_dq": 0.0}, "max_dq"),
    (([0.0], [1.0]), {"max_dq": float("nan")}, "max_dq"),
    (([0.0], [1.0]), {"min_steps": 0}, "min_steps"),
    (([0.0, 1.0], [1.0]), {}, "joints"),
    (([float("nan")], [1.0]), {}, "NaN"),
    (([], []), {}, "empty"),
])
def test_bad_inputs_raise(args, kwargs, message):
    with pytest.raises(InputError, match=message):
        interpolate_joints(*args, **kwargs)
