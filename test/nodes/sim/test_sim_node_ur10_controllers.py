"""The UR10's controller_manager and F/T broadcaster on the sim over real DDS (ur10_palletizing):
list_controllers (the trajectory controller claims position interfaces, as ur_controllers.yaml
has it), force_torque_sensor_broadcaster/wrench in tool0_controller and the tare
(io_and_status_controller/zero_ftsensor); and the reading's convention (environment on tool,
TCP axes) under a known push, in-process."""
from __future__ import annotations

from types import SimpleNamespace

import numpy as np
import pybullet as p
import pytest
from geometry_msgs.msg import WrenchStamped
from ros_sim_helpers import Recorder, call_service
from std_srvs.srv import Trigger

from controller_manager_msgs.srv import ListControllers
from robot_tasks.nodes.sim.ur_ft_io import URForceTorqueIO
from robot_tasks.sim import World

pytestmark = [pytest.mark.ros, pytest.mark.sim, pytest.mark.timeout(120)]

SIM_PARAMS = {"scene": "ur10_palletizing", "seed": 0, "real_time_factor": 1.0, "camera_rate": 0.0,
              "object_rate": 0.0}
NS = "/ur10"


def test_the_ur10_lists_its_broadcasters_and_a_position_trajectory_controller(probe):
    response = call_service(probe, ListControllers, f"{NS}/controller_manager/list_controllers",
                            ListControllers.Request())
    controllers = {c.name: c for c in response.controller}
    assert {"joint_state_broadcaster", "force_torque_sensor_broadcaster", "joint_trajectory_controller"} <= set(
        controllers)
    assert controllers["force_torque_sensor_broadcaster"].type == \
        "force_torque_sensor_broadcaster/ForceTorqueSensorBroadcaster"
    jtc = controllers["joint_trajectory_controller"]
    assert jtc.state == "active" and jtc.claimed_interfaces[0] == "shoulder_pan_joint/position"


def test_the_wrench_is_tared_in_tool0_controller_and_zero_ftsensor_answers(probe):
    wrench = Recorder(probe, WrenchStamped, f"{NS}/force_torque_sensor_broadcaster/wrench")
    try:
        msg = wrench.latest(timeout=10.0)
        assert msg.header.frame_id == "tool0_controller"
        f = msg.wrench.force
        assert np.linalg.norm([f.x, f.y, f.z]) < 1.0, "held still at home, tared: ~0 N"
        response = call_service(probe, Trigger, f"{NS}/io_and_status_controller/zero_ftsensor", Trigger.Request())
        assert response.success, response.message
    finally:
        wrench.close()


def test_a_push_up_on_the_tool_reads_as_the_environment_pushing_the_tool_in_tcp_axes():
    with World(scene="ur10_palletizing") as world:
        robot = world.robot("ur10")
        world.step(int(0.6 / world.time_step))                     # past the start-up tare
        sensor = URForceTorqueIO.__new__(URForceTorqueIO)          # the reading alone, no node
        sensor.robot_io = SimpleNamespace(robot=robot)
        sensor._robot = sensor._sensor = None
        sensor._tare_due = True
        assert np.abs(sensor.reading()).max() < 0.05
        tcp = robot.link_index(robot.ee_link)
        for _ in range(50):
            p.applyExternalForce(robot.body_id, tcp, [0.0, 0.0, 20.0], robot.ee_pose()[0], p.WORLD_FRAME,
                                 physicsClientId=world.client)
            world.step(1)
        rotation = np.array(p.getMatrixFromQuaternion(robot.ee_pose()[1])).reshape(3, 3)
        expected = rotation.T @ np.array([0.0, 0.0, 20.0])              # the push, in TCP axes
        force = sensor.reading()[:3]
        cosine = force @ expected / (np.linalg.norm(force) * 20.0)
        assert cosine > 0.99 and 12.0 < np.linalg.norm(force) < 21.0, force
