"""A gripper whose driver does not answer is an error within the goal's timeout, never a grasp.

The arm's driver runs (fake_driver with `gripper:=false`: joint_states still carry the
fingers, still, as joint_state_publisher keeps a joint nobody reports -- the case where the
old topic-based server read "not moving" as a grasp), but no franka_gripper, no gripper action
and no UR IO controller answer. A UR IO controller that is there but inactive refuses set_io.
"""
import time

import pytest
from paths import SUPPORT
from server_helpers import FAKE_DRIVER, ActionHelper, gripper_goal

from robot_tasks_interfaces.action import GripperCommand

pytestmark = [pytest.mark.timeout(180), pytest.mark.ros]

Code = GripperCommand.Result
Goal = GripperCommand.Goal
TIMEOUT = 2.0             # s: each goal's own timeout
SLACK = 1.0               # s the answer may come after it (process and DDS latency)


@pytest.fixture(scope="module")
def servers(launcher, probe):
    launcher.start_script(FAKE_DRIVER, "fake_driver", params={"gripper": False})
    launcher.start_script(SUPPORT / "ur_io_standin.py", "ur_io_standin", params={"active": False})
    start = launcher.start_module
    start("robot_tasks.nodes.gripper_server", "gripper_server", params={"robot": "panda"})
    start("robot_tasks.nodes.gripper_server", "gripper_server_ga", params={"backend": "gripper_action"},
          remaps={"gripper_command": "gripper_command_ga"})
    start("robot_tasks.nodes.gripper_server", "gripper_server_io",
          params={"robot": "ur10", "io_controller": "nowhere/io_and_status_controller"},
          remaps={"gripper_command": "gripper_command_io"})
    start("robot_tasks.nodes.gripper_server", "gripper_server_inactive", params={"robot": "ur10"},
          remaps={"gripper_command": "gripper_command_inactive"})
    helpers = {name: ActionHelper(probe, GripperCommand, name)
               for name in ("gripper_command", "gripper_command_ga", "gripper_command_io",
                            "gripper_command_inactive")}
    for helper in helpers.values():
        helper.wait_ready(30.0)
    return helpers


def timed(helper, goal):
    started = time.monotonic()
    result, _, _ = helper.run(goal, TIMEOUT + 10.0)
    return result, time.monotonic() - started


@pytest.mark.parametrize("mode", [Goal.PARALLEL, Goal.FORCE_HOLD])
def test_a_grasp_with_no_franka_gripper_fails_within_its_timeout(servers, mode):
    result, took = timed(servers["gripper_command"], gripper_goal(mode=mode, width=0.0, max_effort=20.0,
                                                                  timeout=TIMEOUT))
    assert result.error_code == Code.CONTROLLER_FAILED, result.message
    assert "no action server /franka_gripper/" in result.message and "franka_gripper running" in result.message
    assert not result.object_detected and not result.reached_goal
    assert took < TIMEOUT + SLACK, f"answered after {took:.2f} s"


def test_no_gripper_action_server_fails_within_its_timeout(servers):
    result, took = timed(servers["gripper_command_ga"], gripper_goal(width=0.0, timeout=TIMEOUT))
    assert result.error_code == Code.CONTROLLER_FAILED, result.message
    assert "/gripper_controller/gripper_cmd" in result.message and not result.object_detected
    assert took < TIMEOUT + SLACK, f"answered after {took:.2f} s"


def test_suction_with_no_io_states_fails_within_its_timeout(servers):
    result, took = timed(servers["gripper_command_io"], gripper_goal(mode=Goal.SUCTION, suction_on=True,
                                                                     timeout=TIMEOUT))
    assert result.error_code == Code.NO_JOINT_STATES, result.message
    assert "no io_states on '/nowhere/io_and_status_controller/io_states'" in result.message
    assert not result.object_detected
    assert took < TIMEOUT + SLACK, f"answered after {took:.2f} s"


def test_an_inactive_io_controller_refuses_and_the_goal_fails(servers):
    result, took = timed(servers["gripper_command_inactive"], gripper_goal(mode=Goal.SUCTION, suction_on=True,
                                                                           timeout=TIMEOUT))
    assert result.error_code == Code.CONTROLLER_FAILED, result.message
    assert "refused to switch output 16 on" in result.message and not result.object_detected
    assert took < TIMEOUT + SLACK, f"answered after {took:.2f} s"
