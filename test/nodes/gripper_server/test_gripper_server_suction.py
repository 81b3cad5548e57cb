"""The gripper server's suction cup through a UR's IO controller (backend `set_io`).

SUCTION goals switch the vacuum valve's digital output with ur_msgs/SetIO and read the
vacuum switch's input in ur_msgs/IOStates. Against the stand-in written from the UR driver's
gpio_controller (an object under the cup: the switch closes 0.1 s after the valve opens) and
against the sim (ur10_palletizing, the cup in the air: nothing attaches).
"""
import pytest
from paths import SUPPORT
from ros_sim_helpers import Recorder
from server_helpers import ActionHelper, gripper_goal

from robot_tasks_interfaces.action import GripperCommand
from ur_msgs.msg import IOStates

pytestmark = [pytest.mark.timeout(240), pytest.mark.ros]

Code = GripperCommand.Result
SUCTION = GripperCommand.Goal.SUCTION
VACUUM_OUT, VACUUM_IN = 16, 16          # tool digital out 0 / in 0 (config/ur10_palletizing.yaml)


@pytest.fixture(scope="module", params=["standin", "sim"])
def cup(request, launcher, probe):
    if request.param == "standin":
        driver = launcher.start_script(SUPPORT / "ur_io_standin.py", "ur_io_standin",
                                       params={"object_under_cup": True})
        io, sim_time, holds = "io_and_status_controller", False, True
    else:
        driver = launcher.start_module("robot_tasks.nodes.sim", "sim",
                                       params={"scene": "ur10_palletizing", "seed": 3, "camera_rate": 0.0,
                                               "object_rate": 0.0})
        io, sim_time, holds = "/ur10/io_and_status_controller", True, False
    server = launcher.start_module("robot_tasks.nodes.gripper_server", "gripper_server",
                                   params={"robot": "ur10", "io_controller": io, "use_sim_time": sim_time})
    grip = ActionHelper(probe, GripperCommand, "gripper_command")
    grip.wait_ready(60.0)
    states = Recorder(probe, IOStates, f"{io}/io_states" if io.startswith("/") else f"/{io}/io_states", keep=20)
    states.latest(30.0)
    yield grip, states, holds
    states.close()
    server.stop()
    driver.stop()


def test_vacuum_on_reports_what_the_switch_says_and_off_releases(cup):
    grip, states, holds = cup
    result, _, _ = grip.run(gripper_goal(mode=SUCTION, suction_on=True), 30.0)
    assert result.error_code == Code.SUCCESS and result.reached_goal, result.message
    assert result.object_detected is holds, result.message
    msg = states.wait_for(lambda m: m.digital_out_states[VACUUM_OUT].state, "the vacuum output on", 5.0)
    assert [d.pin for d in msg.digital_in_states] == list(range(18)) and len(msg.analog_out_states) == 2
    assert msg.digital_in_states[VACUUM_IN].state is holds
    result, _, _ = grip.run(gripper_goal(mode=SUCTION, suction_on=False), 30.0)
    assert result.error_code == Code.SUCCESS and not result.object_detected, result.message
    assert result.message == "vacuum off, released"
    states.wait_for(lambda m: not m.digital_out_states[VACUUM_OUT].state and not m.digital_in_states[VACUUM_IN].state,
                    "the vacuum output and switch off", 5.0)


def test_a_parallel_goal_on_the_cup_is_not_supported(cup):
    grip = cup[0]
    result, _, _ = grip.run(gripper_goal(width=0.04))
    assert result.error_code == Code.MODE_NOT_SUPPORTED, result.message
