"""The sim node with the ur10_palletizing scene: suction on/off, DROP and the belt over real DDS.

The suction cup and the belt hang on the UR's IO, as the UR driver serves it: the vacuum
valve on tool digital out 0 (pin 16), the vacuum switch on tool digital in 0 (pin 16), the
belt PLC's run input on digital out 0 -- switched with io_and_status_controller/set_io
(ur_msgs/SetIO), read in io_and_status_controller/io_states (ur_msgs/IOStates).
Joint targets come from PyBullet IK in a local copy of the same seeded scene (test-only
scripting, as in test/sim); the node only ever sees JointTrajectory and SetIO messages.
"""
from __future__ import annotations

import time

import numpy as np
import pytest
from geometry_msgs.msg import Pose
from ros_sim_helpers import Recorder, call_service, joint_map, trajectory
from sensor_msgs.msg import JointState
from sim_helpers import ik  # test-only PyBullet IK, shared with test/sim
from trajectory_msgs.msg import JointTrajectory

from robot_tasks.sim import World
from robot_tasks_interfaces.msg import ObjectStateArray
from robot_tasks_interfaces.srv import PerturbObject, ResetScene
from ur_msgs.msg import IOStates
from ur_msgs.srv import SetIO

pytestmark = [pytest.mark.ros, pytest.mark.sim]

SIM_PARAMS = {"scene": "ur10_palletizing", "seed": 3, "real_time_factor": 2.0, "camera_rate": 0.0}
TRAJ_TOPIC = "/ur10/joint_trajectory_controller/joint_trajectory"
SET_IO = "/ur10/io_and_status_controller/set_io"
VACUUM_OUT, VACUUM_SWITCH, BELT_OUT = 16, 16, 0
UR10_ARM = ["shoulder_pan_joint", "shoulder_lift_joint", "elbow_joint",
            "wrist_1_joint", "wrist_2_joint", "wrist_3_joint"]


def _bin(objects_msg, name="bin_0"):
    return next(o for o in objects_msg.objects if o.name == name)


class Ur10:
    """Topics of the UR10 and a scripted pick of bin_0 (the bin waiting at the conveyor stop)."""

    def __init__(self, probe):
        self.probe = probe
        self.joint_states = Recorder(probe, JointState, "/ur10/joint_states")
        self.objects = Recorder(probe, ObjectStateArray, "/objects", keep=20)
        self.io = Recorder(probe, IOStates, "/ur10/io_and_status_controller/io_states", keep=20)
        self.traj = probe.node.create_publisher(JointTrajectory, TRAJ_TOPIC, 10)
        probe.wait_for_subscriber(TRAJ_TOPIC)

    def set_output(self, pin: int, on: bool) -> None:
        request = SetIO.Request(fun=SetIO.Request.FUN_SET_DIGITAL_OUT, pin=pin, state=1.0 if on else 0.0)
        assert call_service(self.probe, SetIO, SET_IO, request).success

    def attached(self, msg) -> bool:
        return msg.digital_in_states[VACUUM_SWITCH].state

    def bin_z(self, msg) -> float:
        return _bin(msg).pose.position.z

    def arm_at(self, q):
        return lambda js: np.max(np.abs(np.array([joint_map(js)[n] for n in UR10_ARM]) - q)) < 0.02

    def pick_and_lift(self) -> float:
        """Pick bin_0 with suction and lift it 0.3 m; return its start height."""
        b = _bin(self.objects.latest())
        start = np.array([b.pose.position.x, b.pose.position.y, b.pose.position.z])
        up_z = 1 - 2 * (b.pose.orientation.x ** 2 + b.pose.orientation.y ** 2)   # world z of the bin's z
        top = start + [0, 0, b.size.z / 2 if up_z < -0.5 else -b.size.z / 2 + 0.008]
        with World(scene="ur10_palletizing", seed=3) as local:
            arm = local.robot("ur10")
            above, touch, lifted = (ik(arm, top + offset)
                                    for offset in ([0, 0, 0.15], [0, 0, -0.005], [0, -0.3, 0.3]))
        self.traj.publish(trajectory(UR10_ARM, [(above, 2.0)]))
        self.joint_states.wait_for(self.arm_at(above), "the cup above the bin", timeout=10.0)
        self.set_output(VACUUM_OUT, True)
        self.traj.publish(trajectory(UR10_ARM, [(touch, 1.0)]))
        self.io.wait_for(self.attached, "the vacuum switch on", timeout=10.0)
        self.traj.publish(trajectory(UR10_ARM, [(lifted, 1.5)]))
        self.objects.wait_for(lambda m: self.bin_z(m) > start[2] + 0.2, "bin_0 lifted", timeout=10.0)
        return float(start[2])

    def close(self) -> None:
        for rec in (self.joint_states, self.objects, self.io):
            rec.close()
        self.probe.node.destroy_publisher(self.traj)


@pytest.fixture
def ur10(probe):
    reset = call_service(probe, ResetScene, "/reset_scene", ResetScene.Request(seed=-1))
    assert reset.success and "seed 3" in reset.message, reset.message
    robot = Ur10(probe)
    yield robot
    robot.close()


def test_suction_picks_up_a_bin_and_releases_it(ur10):
    io = ur10.io.latest(20.0)
    assert not ur10.attached(io) and not io.digital_out_states[VACUUM_OUT].state
    assert [d.pin for d in io.digital_in_states] == list(range(18)) == [d.pin for d in io.digital_out_states]
    assert list(ur10.joint_states.latest(20.0).name) == UR10_ARM
    start_z = ur10.pick_and_lift()
    assert ur10.io.latest().digital_out_states[VACUUM_OUT].state
    ur10.set_output(VACUUM_OUT, False)
    ur10.io.wait_for(lambda m: not ur10.attached(m), "suction released", timeout=5.0)
    ur10.objects.wait_for(lambda m: ur10.bin_z(m) < start_z + 0.1, "bin_0 fallen", timeout=10.0)


def test_perturb_drop_makes_the_suction_let_go(ur10, probe):
    start_z = ur10.pick_and_lift()
    res = call_service(probe, PerturbObject, "/perturb_object",
                       PerturbObject.Request(object_name="bin_0", mode="DROP", target=Pose()))
    assert res.success and "dropped bin_0" in res.message, res.message
    ur10.io.wait_for(lambda m: not ur10.attached(m), "suction released", timeout=5.0)
    ur10.objects.wait_for(lambda m: ur10.bin_z(m) < start_z + 0.1, "bin_0 fallen", timeout=10.0)


def _x_of(ur10, name):
    msg = ur10.objects.wait_for(lambda m: any(o.name == name for o in m.objects), f"{name} on the belt", 15.0)
    return _bin(msg, name).pose.position.x


def test_the_belt_runs_on_a_digital_output(ur10, probe):
    # bin_1 enters at the belt's start right after the reset and rides toward bin_0 at the stop
    ur10.io.wait_for(lambda m: m.digital_out_states[BELT_OUT].state, "the belt's output on (the scene starts it)", 10.0)
    ur10.set_output(BELT_OUT, False)
    ur10.io.wait_for(lambda m: not m.digital_out_states[BELT_OUT].state, "the belt's output off", 5.0)
    time.sleep(0.5)                      # the last moving step settles
    x0 = _x_of(ur10, "bin_1")
    time.sleep(1.5)
    assert abs(_x_of(ur10, "bin_1") - x0) < 0.005, "bin_1 moved on a paused belt"
    ur10.set_output(BELT_OUT, True)
    time.sleep(1.5)
    assert _x_of(ur10, "bin_1") - x0 > 0.1, "bin_1 did not ride the running belt"


def test_set_io_answers_as_the_ur_driver_does(ur10, probe):
    request = SetIO.Request(fun=SetIO.Request.FUN_SET_FLAG, pin=0, state=1.0)     # flags: not served
    assert not call_service(probe, SetIO, SET_IO, request).success
    request = SetIO.Request(fun=SetIO.Request.FUN_SET_DIGITAL_OUT, pin=18, state=1.0)   # no such output
    assert not call_service(probe, SetIO, SET_IO, request).success
    ur10.set_output(5, True)                                    # wired to nothing: kept and reported
    ur10.io.wait_for(lambda m: m.digital_out_states[5].state, "digital out 5 on", 5.0)
    ur10.set_output(5, False)
