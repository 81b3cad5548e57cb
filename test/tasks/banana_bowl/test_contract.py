"""The task contract: the shipped file loads; every bad value names the file and the key."""
from __future__ import annotations

import copy
import math

import pytest
import yaml
from paths import REPO

from robot_tasks.tasks.banana_bowl.contract import load_contract, parse_contract
from robot_tasks.tasks.errors import TaskError

SHIPPED = REPO / "config" / "banana_bowl_task.yaml"


def shipped_data() -> dict:
    return yaml.safe_load(SHIPPED.read_text())


def test_shipped_contract_has_the_seed_task_and_both_kinds_of_profile():
    contract = load_contract(SHIPPED)
    task = contract.task
    assert (task.pick_object, task.place_target, task.success_tol) == ("banana", "bowl", 0.06)
    banana, lemon = contract.profile("banana"), contract.profile("lemon")
    assert banana.center_align is False and banana.close_force == -10.0 and math.isfinite(banana.grasp_hand_z)
    assert lemon.center_align is True and 0 < lemon.drop_fraction < 1 and lemon.hand_to_fingertip > 0
    assert (task.max_dq, task.min_steps) == (0.006, 40)


@pytest.mark.parametrize("path, value, expected", [
    (("task", "success_tol"), -0.1, "task.success_tol: must be > 0"),
    (("task", "success_tol"), "wide", "task.success_tol: must be a finite number"),
    (("task", "min_steps"), 2.5, "task.min_steps: must be a whole number"),
    (("task", "place_target"), [0.5], "task.place_target: a point must be [x, y]"),
    (("task", "pick_object"), "apple", "no grasp profile for 'apple'"),
    (("grasp_profiles", "banana", "close_force"), 5.0, "grasp_profiles.banana.close_force: must be < 0"),
    (("grasp_profiles", "lemon", "max_held_width"), 0.0, "grasp_profiles.lemon.max_held_width: must be > 0"),
    (("grasp_profiles", "banana", "center_align"), "yes", "grasp_profiles.banana.center_align: must be true or false"),
    (("grasp_profiles", "lemon", "drop_fraction"), 1.5, "grasp_profiles.lemon.drop_fraction: must be <= 1"),
])
def test_a_bad_value_is_reported_with_file_and_key(path, value, expected):
    data = copy.deepcopy(shipped_data())
    *parents, key = path
    target = data
    for part in parents:
        target = target[part]
    target[key] = value
    with pytest.raises(TaskError) as info:
        parse_contract(data, "banana_bowl_task.yaml")
    assert str(info.value).startswith("banana_bowl_task.yaml: ") and expected in str(info.value)


def test_a_missing_key_and_a_broken_file_are_reported(tmp_path):
    data = shipped_data()
    del data["grasp_profiles"]["lemon"]["palm_clearance"]
    with pytest.raises(TaskError, match="grasp_profiles.lemon.palm_clearance: missing"):
        parse_contract(data, "x.yaml")
    broken = tmp_path / "broken.yaml"
    broken.write_text("task: [unclosed\n")
    with pytest.raises(TaskError, match=r"broken.yaml: line \d+ not valid YAML"):
        load_contract(broken)
    with pytest.raises(TaskError, match="cannot read"):
        load_contract(tmp_path / "absent.yaml")


def test_a_table_point_target_is_read_as_a_point():
    data = shipped_data()
    data["task"]["place_target"] = [0.5, 0.2]
    task = parse_contract(data, "x.yaml").task
    assert task.place_target == (0.5, 0.2) and task.place_label is None
