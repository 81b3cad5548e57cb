"""compliant_move: the glide of a compliant target and the flat command it becomes (no ROS)."""
from __future__ import annotations

import numpy as np
import pytest

from robot_tasks.control.compliance import CompliantMove, along_normal, command_vector, smoothstep, to_frame
from robot_tasks.control.errors import InputError
from robot_tasks.control.pose import Pose

# a task frame 1 m up, turned 90° about x: its z is the base's -y
FRAME = Pose([0.0, 0.0, 1.0], [np.sqrt(0.5), 0.0, 0.0, np.sqrt(0.5)])
HYBRID = ["pose_abs", "wrench_abs", "stiffness"]


def test_smoothstep_starts_and_ends_at_rest_and_clamps():
    assert smoothstep(-1.0) == 0.0 and smoothstep(0.0) == 0.0
    assert smoothstep(0.5) == pytest.approx(0.5) and smoothstep(1.0) == 1.0 and smoothstep(3.0) == 1.0
    eps = 1e-4
    assert smoothstep(eps) / eps < 1e-3 and (1 - smoothstep(1 - eps)) / eps < 1e-3   # zero slope at the ends


def test_frame_coordinates_and_normal_components():
    assert np.allclose(to_frame(FRAME, [0.0, -0.2, 1.0]), [0.0, 0.0, 0.2])
    assert along_normal(FRAME, [0.0, -3.0, 5.0]) == pytest.approx(3.0)


def test_the_target_glides_from_the_start_and_stays_at_the_goal():
    move = CompliantMove(FRAME, Pose([0.1, 0.0, 0.0]), np.zeros(6), None, duration=2.0)
    start = np.array([0.0, 0.05, 0.0])
    assert np.allclose(move.position_at(0.0, start), start)
    assert np.allclose(move.position_at(1.0, start), [0.05, 0.025, 0.0])
    assert np.allclose(move.position_at(5.0, start), [0.1, 0.0, 0.0])
    jump = CompliantMove(FRAME, Pose([0.1, 0.0, 0.0]), np.zeros(6), None, duration=0.0)
    assert np.allclose(jump.position_at(0.0, start), [0.1, 0.0, 0.0])


def test_the_wrench_ramps_from_the_one_in_force():
    move = CompliantMove(FRAME, Pose([0.0, 0.0, 0.0]), np.array([0, 0, 10.0, 0, 0, 0]), None, duration=1.0)
    assert np.allclose(move.wrench_at(0.0, np.zeros(6)), 0.0)
    assert move.wrench_at(0.5, np.zeros(6))[2] == pytest.approx(5.0)
    assert np.allclose(move.wrench_at(0.3, move.wrench), move.wrench)      # already pressing: stays
    assert move.wrench_at(2.0, np.zeros(6))[2] == pytest.approx(10.0)
    stiff = CompliantMove(FRAME, move.target, move.wrench, np.ones(6), duration=1.0)
    assert stiff.command(HYBRID, [0, 0, 0], stiff.wrench_at(0.5, np.zeros(6)))[16] == pytest.approx(5.0)
    assert stiff.command(HYBRID, [0, 0, 0])[16] == pytest.approx(10.0)          # default: the final wrench


def test_the_command_is_frame_then_the_controllers_blocks_in_order():
    wrench, stiffness = np.array([0, 0, 10.0, 0, 0, 0]), np.arange(1.0, 7.0)
    command = command_vector(HYBRID, FRAME, Pose([0.1, 0.2, 0.0]), wrench, stiffness)
    assert len(command) == 7 + 7 + 6 + 6
    assert np.allclose(command[:7], [*FRAME.position, *FRAME.quaternion])
    assert np.allclose(command[7:10], [0.1, 0.2, 0.0]) and np.allclose(command[10:14], [0, 0, 0, 1])
    assert np.allclose(command[14:20], wrench) and np.allclose(command[20:], stiffness)
    assert len(command_vector(["pose_abs"], FRAME, Pose([0, 0, 0]), np.zeros(6), None)) == 14


@pytest.mark.parametrize("layout, wrench, stiffness, words", [
    (["joint_positions"], np.zeros(6), None, "no absolute pose target"),
    (["pose_abs"], np.array([0, 0, 5.0, 0, 0, 0]), None, "controls no force"),
    (["pose_abs"], np.zeros(6), np.ones(6), "gains are fixed"),
    (HYBRID, np.zeros(6), None, "needs six stiffnesses"),
    (["pose_abs", "pose_rel"], np.zeros(6), None, "'pose_rel' is not supported"),
])
def test_a_layout_that_cannot_carry_the_move_is_refused(layout, wrench, stiffness, words):
    with pytest.raises(InputError, match=words):
        command_vector(layout, FRAME, Pose([0, 0, 0]), wrench, stiffness)
