"""Phase poses from a detection and a GraspProfile: heights, yaw, release over the rim."""
from __future__ import annotations

import math

import numpy as np
import pytest
from paths import REPO

from robot_tasks.tasks.banana_bowl.contract import load_contract
from robot_tasks.tasks.banana_bowl.targets import grasp_hand_z, hand_orientation, pick_and_place_poses, place_target_of
from robot_tasks.tasks.errors import TaskError
from robot_tasks.tasks.world_view import Seen

CONTRACT = load_contract(REPO / "config" / "banana_bowl_task.yaml")
TASK = CONTRACT.task
BANANA = Seen("banana", (0.50, -0.20, 0.644), yaw=0.4, size=(0.186, 0.06, 0.038))
LEMON = Seen("lemon", (0.45, -0.15, 0.651), yaw=1.0, size=(0.054, 0.054, 0.052))
BOWL = Seen("bowl", (0.52, 0.20, 0.6525), size=(0.161, 0.161, 0.055))


def finger_axis(q) -> np.ndarray:
    """World direction of the hand's y axis (the fingers close along it) for (qx, qy, qz, qw)."""
    x, y, z, w = q
    return np.array([2 * (x * y - z * w), 1 - 2 * (x * x + z * z), 2 * (y * z + x * w)])


def test_banana_uses_the_fixed_hand_height_and_closes_across_its_length():
    profile = CONTRACT.profile("banana")
    assert grasp_hand_z(profile, BANANA) == profile.grasp_hand_z
    axis = finger_axis(hand_orientation(profile, BANANA))
    length = np.array([math.cos(BANANA.yaw), math.sin(BANANA.yaw), 0.0])
    assert abs(axis @ length) < 1e-9 and abs(axis[2]) < 1e-9     # across the length, horizontal


def test_center_align_height_follows_the_rule_from_the_box():
    p = CONTRACT.profile("lemon")
    half = LEMON.size[2] / 2
    fingertip = LEMON.position[2] - p.drop_fraction * half
    expected = max(fingertip + p.hand_to_fingertip, LEMON.position[2] + half + p.palm_clearance)
    assert grasp_hand_z(p, LEMON) == pytest.approx(expected)
    taller = Seen("lemon", LEMON.position, size=(0.05, 0.05, 0.30))     # the palm clearance wins
    assert grasp_hand_z(p, taller) == pytest.approx(LEMON.position[2] + 0.15 + p.palm_clearance)


def test_phase_poses_stack_up_and_release_clears_the_rim():
    profile = CONTRACT.profile("banana")
    target = place_target_of(TASK, {"banana": BANANA, "bowl": BOWL})
    poses = pick_and_place_poses(TASK, profile, BANANA, target)
    grasp_z = profile.grasp_hand_z - profile.hand_to_tool
    assert poses["grasp"]["z"] == pytest.approx(grasp_z)
    assert poses["pregrasp"]["z"] == pytest.approx(grasp_z + TASK.pregrasp_height)
    assert poses["lift"]["z"] == pytest.approx(grasp_z + TASK.lift_height)
    for name in ("pregrasp", "grasp", "lift"):
        assert (poses[name]["x"], poses[name]["y"]) == BANANA.position[:2]
    rim = BOWL.position[2] + BOWL.size[2] / 2
    bottom_at_release = poses["release"]["z"] - (grasp_z - (BANANA.position[2] - BANANA.size[2] / 2))
    assert bottom_at_release == pytest.approx(rim + TASK.release_clearance)
    assert (poses["release"]["x"], poses["release"]["y"]) == BOWL.position[:2]
    assert poses["retreat"]["z"] == pytest.approx(poses["release"]["z"] + TASK.retreat_height)


def test_unseen_target_and_a_grasp_in_the_table_are_errors():
    with pytest.raises(TaskError, match="'bowl' not among the detections"):
        place_target_of(TASK, {"banana": BANANA})
    from dataclasses import replace
    low = replace(CONTRACT.profile("banana"), grasp_hand_z=TASK.table_top_z + 0.05)
    with pytest.raises(TaskError, match="into the table"):
        pick_and_place_poses(TASK, low, BANANA, place_target_of(TASK, {"bowl": BOWL}))
