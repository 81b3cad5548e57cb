"""Module-scoped ROS fixtures, and the two gripper drivers the tests run against.

Every franka test runs twice: against the stand-in written from franka_gripper's source
(test/support/franka_gripper_standin.py, inside fake_driver.py: a 5 cm object between the
fingers) and against the sim (franka_stacking: the hand at home, nothing between the
fingers). ``probe`` comes from test/conftest.py.
"""
from __future__ import annotations

from dataclasses import dataclass, field

import pytest
from module_scoped import launcher, ros_env  # noqa: F401
from server_helpers import FAKE_DRIVER

OBJECT_WIDTH = 0.05
SIM_PARAMS = {"scene": "franka_stacking", "seed": 0, "real_time_factor": 1.0, "camera_rate": 0.0,
              "object_rate": 0.0}


@dataclass
class FrankaDriver:
    """Where a franka_gripper lives and what is between its fingers."""

    kind: str                   # "standin" | "sim"
    namespace: str              # the robot's: "" (stand-in) or "/panda" (sim)
    object_width: float         # m; 0 = nothing between the fingers
    processes: list = field(default_factory=list)

    @property
    def gripper(self) -> str:
        return f"{self.namespace}/franka_gripper"

    @property
    def joint_states(self) -> str:
        return f"{self.namespace}/joint_states"

    @property
    def closed_width(self) -> float:
        """Where closing fingers stop: on the object, or on each other."""
        return self.object_width

    def stop(self) -> None:
        for proc in reversed(self.processes):
            proc.stop()


def start_franka_driver(launcher, kind: str) -> FrankaDriver:
    if kind == "standin":
        proc = launcher.start_script(FAKE_DRIVER, "fake_driver",
                                     params={"object_width": OBJECT_WIDTH, "finger_speed": 0.05})
        return FrankaDriver(kind, "", OBJECT_WIDTH, [proc])
    proc = launcher.start_module("robot_tasks.nodes.sim", "sim", params=SIM_PARAMS)
    return FrankaDriver(kind, "/panda", 0.0, [proc])


@pytest.fixture(scope="module", params=["standin", "sim"])
def franka(request, launcher, probe):
    """One franka_gripper (stand-in, then sim), up and answering."""
    driver = start_franka_driver(launcher, request.param)
    from franka_msgs.action import Homing

    probe.wait_for_action_server(Homing, f"{driver.gripper}/homing", 60.0)
    yield driver
    driver.stop()
