"""remote_disturb's loop, without ROS: the demo's rule armed by phase events, its request sent
once, the sim's answer reported; a rule that never fires ends in an error at the timeout."""
from __future__ import annotations

from concurrent.futures import Future
from types import SimpleNamespace

from robot_tasks.demo.run_watcher import RunState
from robot_tasks.tasks.stacking.disturbance import StackingDisturbanceRule
from robot_tasks.testing import remote_disturb

CUBES = {"red_cube": ((0.5, 0.0, 0.675), (0, 0, 0, 1)), "blue_cube": ((0.55, 0.2, 0.625), (0, 0, 0, 1)),
         "green_cube": ((0.45, -0.2, 0.625), (0, 0, 0, 1)), "yellow_cube": ((0.6, -0.1, 0.625), (0, 0, 0, 1))}


class FakeWatcher:
    """Stands in for the demo's RunWatcher: the sim answers every perturb_object call."""

    def __init__(self):
        self.sent = []
        self.perturb = SimpleNamespace(call_async=self._call)
        self.PerturbObject = SimpleNamespace(Request=lambda **fields: fields)

    def _call(self, request):
        self.sent.append(request)
        answered = Future()
        answered.set_result(SimpleNamespace(success=True, message=f"dragged {request['object_name']}"))
        return answered


def test_drag_goes_out_once_when_the_arm_heads_for_the_second_cube():
    state = RunState(poses=dict(CUBES), released=1, events=[("phase", "pre_grasp")])
    watcher = FakeWatcher()
    outcome = remote_disturb._follow(watcher, state, StackingDisturbanceRule("drag", delay_s=0.0), 5.0, say=lambda _l: None)
    assert outcome["response"] == {"success": True, "message": "dragged blue_cube"}
    assert outcome["request"]["mode"] == "DRAG" and outcome["request"]["object_name"] == "blue_cube"
    assert len(watcher.sent) == 1


def test_a_rule_that_never_arms_ends_in_an_error():
    state = RunState(poses=dict(CUBES), released=0, events=[("phase", "pre_grasp")])   # the 1st cube: too early
    outcome = remote_disturb._follow(FakeWatcher(), state, StackingDisturbanceRule("drag"), 0.3, say=lambda _l: None)
    assert "did not fire" in outcome["error"]
