"""A UR's force/torque sensor as its ROS 2 driver offers it: the broadcaster and the tare.

Universal_Robots_ROS2_Driver (kilted) spawns ros2_controllers' force_torque_sensor_broadcaster
(ur_robot_driver/config/ur_controllers.yaml: sensor `tcp_fts_sensor`, frame_id
`tool0_controller`) and its GPIO controller serves the tare (ur_controllers/src/
gpio_controller.cpp):

  pub  <ns>/force_torque_sensor_broadcaster/wrench    geometry_msgs/WrenchStamped, reliable
                                                      (force_torque_sensor_broadcaster.cpp, `~/wrench`)
  srv  <ns>/io_and_status_controller/zero_ftsensor    std_srvs/Trigger

The driver reads the controller's `actual_TCP_force` (the external wrench on the TCP, base
axes) and turns it into the TCP frame (hardware_interface.cpp, transformForceTorque), so the
message is the wrench the environment exerts on the tool, in `tool0_controller` axes (the
TCP the controller knows), moments about the TCP. On an e-Series it is measured at the flange
and reads the payload too until zeroed; zero_ftsensor zeroes it.

The sim's sensor is the reaction in the fixed joint wrist_3_link -> tool0
(robot_tasks.sim.ft_sensor), tared SETTLE_S after the sim starts (the arm held still at home;
nothing is published before) and by zero_ftsensor; its reading is turned from the sim's convention (tool on environment, base
axes) into the UR's (environment on tool, TCP axes). As on a real sensor the tare holds while
the tool keeps its orientation. The sim publishes only while somebody listens.
"""
from __future__ import annotations

import numpy as np
import pybullet as p
from geometry_msgs.msg import WrenchStamped
from std_srvs.srv import Trigger

from robot_tasks.nodes.sim.compliant_io import fill_wrench
from robot_tasks.nodes.sim.convert import set_stamp
from robot_tasks.nodes.sim.inbox import InboxClosed
from robot_tasks.sim.ft_sensor import ForceTorqueSensor

TOPIC = "force_torque_sensor_broadcaster/wrench"
ZERO_SERVICE = "io_and_status_controller/zero_ftsensor"
FRAME = "tool0_controller"
SENSOR_JOINT = "wrist_3_link-tool0_fixed_joint"
SETTLE_S = 0.5     # s of sim time after start (or a reset) before the start-up tare: the arm is still
BROADCASTER = ("force_torque_sensor_broadcaster", "force_torque_sensor_broadcaster/ForceTorqueSensorBroadcaster")


def has_ur_sensor_joint(robot) -> bool:
    return SENSOR_JOINT in {p.getJointInfo(robot.body_id, j, physicsClientId=robot.world.client)[1].decode()
                            for j in range(p.getNumJoints(robot.body_id, physicsClientId=robot.world.client))}


class URForceTorqueIO:
    """The wrench broadcaster and the tare service of one UR arm."""

    def __init__(self, node, robot_io):
        self.node, self.robot_io = node, robot_io
        self._pub = node.create_publisher(WrenchStamped, robot_io.topic(TOPIC), 10)
        node.create_service(Trigger, robot_io.topic(ZERO_SERVICE), self._on_zero)
        self._robot = self._sensor = None
        self._tare_due = True

    def _sensor_now(self) -> ForceTorqueSensor:
        """The sensor of the current Robot (a reset builds a new one: tare it again)."""
        robot = self.robot_io.robot
        if robot is not self._robot:
            self._robot, self._tare_due = robot, True
            self._sensor = ForceTorqueSensor(robot, SENSOR_JOINT, tcp_link=robot.ee_link)
        if self._tare_due and robot.world.time >= SETTLE_S:
            self._sensor.tare()
            self._tare_due = False
        return self._sensor

    def reading(self) -> np.ndarray:
        """Environment on tool, TCP axes, moment about the TCP (stepping thread)."""
        robot = self.robot_io.robot
        tool_on_environment = self._sensor_now().contact_wrench()      # base axes
        base_to_tcp = p.multiplyTransforms(*p.invertTransform(*robot.base_pose()), *robot.ee_pose())
        rotation = np.array(p.getMatrixFromQuaternion(base_to_tcp[1])).reshape(3, 3)
        return -np.concatenate([rotation.T @ tool_on_environment[:3], rotation.T @ tool_on_environment[3:]])

    def publish(self, ros_seconds: float) -> None:
        self._sensor_now()                      # the start-up tare happens whoever listens
        if self._tare_due or self._pub.get_subscription_count() == 0:
            return
        msg = WrenchStamped()
        msg.header.frame_id = FRAME
        set_stamp(msg.header.stamp, ros_seconds)
        fill_wrench(msg.wrench, self.reading())
        self._pub.publish(msg)

    def _on_zero(self, _request, response):
        def zero():
            self._sensor_now().tare()
        try:
            self.node.inbox.call(zero)
            response.success = True
            self.node.get_logger().info(f"{self.robot_io.name}: Successfully zeroed the force torque sensor")
        except (InboxClosed, TimeoutError) as err:
            response.success, response.message = False, f"Could not zero the force torque sensor: {err}"
        return response
