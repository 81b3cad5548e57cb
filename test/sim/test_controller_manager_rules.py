"""controller_manager's switch rules (robot_tasks.sim.controller_manager), no ROS, no physics.

The cases and the words are ros2_control's (kilted, controller_manager.cpp); one arm whose
trajectory controller and compliant controllers claim the same seven effort interfaces."""
from __future__ import annotations

import pytest

from robot_tasks.sim.controller_manager import (
    AUTO,
    BEST_EFFORT,
    FORCE_AUTO,
    NOTHING_TO_DO,
    STRICT,
    Listed,
    plan_switch,
    success_message,
)

ARM = tuple(f"panda_joint{i}/effort" for i in range(1, 8))


def arm(active="joint_trajectory_controller"):
    names = ["joint_trajectory_controller", "osc", "hybrid_press"]
    listed = {n: Listed(n == active, ARM) for n in names}
    listed["joint_state_broadcaster"] = Listed(True, (), switchable=False)
    return listed


def test_a_hand_over_names_both_and_says_what_it_did():
    plan = plan_switch(arm(), ["osc"], ["joint_trajectory_controller"], STRICT)
    assert plan.ok and (plan.deactivate, plan.activate) == (["joint_trajectory_controller"], ["osc"])
    assert success_message(plan, STRICT) == "Successfully switched controllers!"
    assert success_message(plan, BEST_EFFORT) == ("Successfully switched controllers!\n"
                                                  "Deactivated controllers: [ joint_trajectory_controller ]\n"
                                                  "Activated controllers: [ osc ]")


@pytest.mark.parametrize("strictness", [STRICT, BEST_EFFORT])
def test_activating_while_another_holds_the_interfaces_fails_whatever_the_strictness(strictness):
    plan = plan_switch(arm(), ["osc"], [], strictness)
    assert not plan.ok
    assert plan.message == ("Unable to activate controller 'osc' since the command interface "
                            "'panda_joint1/effort' is currently claimed by another controller.")


def test_two_controllers_cannot_take_the_same_interfaces_at_once():
    plan = plan_switch(arm(), ["osc", "hybrid_press"], ["joint_trajectory_controller"], STRICT)
    assert not plan.ok and "will be used by another controller that is being activated" in plan.message


def test_an_unknown_controller_fails_a_strict_switch_and_names_it():
    plan = plan_switch(arm(), ["osc", "teleport"], ["joint_trajectory_controller"], STRICT)
    assert not plan.ok
    assert plan.message == ("Could not activate controller with name 'teleport' because no "
                            "controller with this name exists")


def test_best_effort_skips_an_unknown_name_after_a_known_one():
    plan = plan_switch(arm(), ["osc", "teleport"], ["joint_trajectory_controller"], BEST_EFFORT)
    assert plan.ok and plan.activate == ["osc"]


@pytest.mark.parametrize("strictness", [BEST_EFFORT, 0, AUTO, FORCE_AUTO])
def test_unknown_names_alone_fail_even_best_effort(strictness):
    plan = plan_switch(arm(), ["teleport"], [], strictness)
    assert not plan.ok and "no controller with this name exists" in plan.message


def test_an_already_active_controller_fails_strict_and_is_nothing_to_do_best_effort():
    strict = plan_switch(arm(), ["joint_trajectory_controller"], [], STRICT)
    assert not strict.ok and strict.message == "Controller with name 'joint_trajectory_controller' is already active."
    best = plan_switch(arm(), ["joint_trajectory_controller"], [], BEST_EFFORT)
    assert best.ok and not best.changes and best.message == NOTHING_TO_DO


def test_deactivating_an_inactive_controller():
    strict = plan_switch(arm(), [], ["osc"], STRICT)
    assert not strict.ok and strict.message == ("Controller with name 'osc' can not be deactivated "
                                                "since it is not active.")
    assert plan_switch(arm(), [], ["osc"], BEST_EFFORT).message == NOTHING_TO_DO


def test_an_empty_request_is_nothing_to_do():
    plan = plan_switch(arm(), [], [], STRICT)
    assert plan.ok and not plan.changes and plan.message == NOTHING_TO_DO


def test_deactivating_alone_leaves_no_controller_and_a_restart_is_allowed():
    plan = plan_switch(arm("osc"), [], ["osc"], STRICT)
    assert plan.ok and plan.deactivate == ["osc"] and plan.activate == []
    restart = plan_switch(arm("osc"), ["osc"], ["osc"], STRICT)
    assert restart.ok and restart.deactivate == ["osc"] and restart.activate == ["osc"]


def test_the_sims_broadcasters_cannot_be_switched():
    plan = plan_switch(arm(), [], ["joint_state_broadcaster"], STRICT)
    assert not plan.ok and "broadcasters" in plan.message
