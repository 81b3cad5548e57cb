"""banana_bowl's `drop` rule (robot_tasks/tasks/banana_bowl/disturbance.py): when it fires
and what it asks of the sim; the run it disturbs is test/demo/test_banana_bowl_e2e.py's."""
import pytest

from robot_tasks.tasks.banana_bowl.disturbance import LIFTED_BY, SlipRule

UPRIGHT = (0.0, 0.0, 0.0, 1.0)


def at(z: float) -> dict:
    return {"banana": ((0.4, -0.1, z), UPRIGHT), "bowl": ((0.5, 0.2, 0.63), UPRIGHT)}


def test_drop_waits_for_the_carry_and_the_object_off_the_table_then_fires_once():
    rule = SlipRule("drop", objects=("banana", "lemon"))
    assert rule.due(0.0, at(0.70)) is None            # spawned above the table, falling
    assert rule.due(0.5, at(0.64)) is None            # at rest: where it lies
    rule.on_phase_start("grasp", 0, 7.5)
    assert rule.due(7.9, at(0.75)) is None            # up, but not in the lift (a push, a bounce)
    rule.on_phase_start("lift", 0, 8.5)
    assert rule.due(8.5, at(0.64 + LIFTED_BY - 0.001)) is None
    request = rule.due(8.6, at(0.64 + LIFTED_BY + 0.001))
    assert request == {"object_name": "banana", "mode": "DROP", "target": (0.0, 0.0, 0.0)}
    assert rule.due(8.7, at(0.80)) is None            # once
    rule.on_phase_start("lift", 0, 15.0)              # the second lift, after the re-pick
    assert rule.due(15.1, at(0.80)) is None
    assert rule.log[0] == "armed at lift (8.50 s)" and rule.log[1].startswith("drop banana 5.")


def test_a_lift_after_a_release_does_not_arm_it_and_other_modes_are_refused():
    rule = SlipRule("drop", objects=("lemon",))
    rule.on_phase_start("lift", 1, 3.0)
    assert rule.due(3.1, {"lemon": ((0.4, 0.0, 0.9), UPRIGHT)}) is None
    with pytest.raises(ValueError, match="banana_bowl: disturbance 'knock' is not one of drop"):
        SlipRule("knock")
