"""The Franka's external wrench and tool pose, as franka_robot_state_broadcaster publishes them.

A real Panda/FR3 under franka_ros2 (v3.4.0, franka_robot_state_broadcaster.cpp) publishes
"convenience topics" next to its full state, under the broadcaster's name:

  pub  <ns>/franka_robot_state_broadcaster/external_wrench_in_base_frame  geometry_msgs/WrenchStamped
  pub  <ns>/franka_robot_state_broadcaster/current_pose                   geometry_msgs/PoseStamped

both best effort, depth 1 (`rclcpp::QoS(1).best_effort()`: a reliable subscriber gets
nothing), header.frame_id the base link (`panda_link0`). The wrench is libfranka's
O_F_ext_hat_K: the estimated external wrench on the stiffness frame K (the end effector),
base axes, and "forces applied by the robot to the environment are positive" (libfranka
include/franka/robot_state.h) — pushing a wall with 10 N reads +10 N along the wall's inward
normal. The pose is O_T_EE, the end effector in the base frame.

The sim publishes these for an arm whose controllers read an F/T sensor (franka_press):
its wrench is that sensor's, already in this convention (robot_tasks.sim.ft_sensor: tool on
environment, base axes, moment about the TCP). The Franka estimates the wrench from its joint
torques with the end effector's load removed and needs no tare; the sim's joint sensor is
tared instead, when a compliant controller takes the arm from position control (robot held
still, touching nothing). The end effector is the sim's tool frame (panda_grasptarget).
"""
from __future__ import annotations

import pybullet as p
from geometry_msgs.msg import PoseStamped, WrenchStamped
from rclpy.qos import QoSProfile, ReliabilityPolicy

from robot_tasks.controller_topics import EXTERNAL_WRENCH_TOPIC, FRANKA_POSE_TOPIC, FRANKA_STATE
from robot_tasks.nodes.sim.compliant_io import base_link, fill_wrench
from robot_tasks.nodes.sim.convert import fill_pose, set_stamp

BROADCASTER_QOS = QoSProfile(depth=1, reliability=ReliabilityPolicy.BEST_EFFORT)
BROADCASTER_TYPE = "franka_robot_state_broadcaster/FrankaRobotStateBroadcaster"
NAME = FRANKA_STATE


class FrankaStateIO:
    """external_wrench_in_base_frame and current_pose of one arm with an F/T sensor."""

    def __init__(self, node, robot_io):
        self.robot_io = robot_io
        topic = robot_io.topic
        self._wrench_pub = node.create_publisher(WrenchStamped, topic(EXTERNAL_WRENCH_TOPIC), BROADCASTER_QOS)
        self._pose_pub = node.create_publisher(PoseStamped, topic(FRANKA_POSE_TOPIC), BROADCASTER_QOS)
        self._base = base_link(robot_io.robot)

    def publish(self, ros_seconds: float) -> None:
        robot = self.robot_io.robot
        sensor = robot.controllers.sensor
        wrench = WrenchStamped()
        wrench.header.frame_id = self._base
        set_stamp(wrench.header.stamp, ros_seconds)
        fill_wrench(wrench.wrench, sensor.contact_wrench())
        self._wrench_pub.publish(wrench)
        pose = PoseStamped()
        pose.header = wrench.header
        inverse = p.invertTransform(*robot.base_pose())            # world -> base
        fill_pose(pose.pose, *p.multiplyTransforms(*inverse, *robot.ee_pose()))
        self._pose_pub.publish(pose)
