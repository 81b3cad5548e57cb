"""One arm's controllers over ROS, as a real ros2_control bringup offers them.

On a real torque-controlled arm the compliant controllers (impedance, operational space)
run inside the control loop next to the drives, at the loop's rate, and the rest of the
system only *switches* them (controller_manager) and *commands* them (their topics);
torques never cross DDS. The sim is that control loop: `robot_tasks.sim.compliant` runs the
laws before every physics sub-step; this module is their ROS face. Under the robot's
namespace `<ns>`:

every arm (the Panda in every scene, the UR10) — controller_manager_io.py:
  srv  <ns>/controller_manager/switch_controller   controller_manager_msgs/SwitchController
  srv  <ns>/controller_manager/list_controllers    controller_manager_msgs/ListControllers
an arm with compliant controllers (franka_press) — compliant_io.py, one set per controller <c>:
  sub  <ns>/<c>/target_frame, <ns>/<c>/target_wrench, <ns>/<c>/ft_sensor_wrench
                                                   geometry_msgs/PoseStamped, WrenchStamped x2
  pub  <ns>/<c>/current_pose, <ns>/<c>/current_twist   PoseStamped, TwistStamped (while active)
  srv  <ns>/<c>/get_parameters, set_parameters, list_parameters   rcl_interfaces (stiffness.* ...)
  sub  <ns>/joint_impedance/commands               std_msgs/Float64MultiArray (joint positions)
a Franka whose controllers read an F/T sensor — robot_state_io.py (best effort):
  pub  <ns>/franka_robot_state_broadcaster/external_wrench_in_base_frame   WrenchStamped
  pub  <ns>/franka_robot_state_broadcaster/current_pose                    PoseStamped
a UR — ur_ft_io.py:
  pub  <ns>/force_torque_sensor_broadcaster/wrench                         WrenchStamped
  srv  <ns>/io_and_status_controller/zero_ftsensor                         std_srvs/Trigger
and, for tests and grading only (no controller, server or tree reads them):
  pub  <ns>/ground_truth/contact_force   WrenchStamped: contact normal forces between the
                                         robot and the scene's static bodies, world axes
  pub  <ns>/ground_truth/tip_pose        PoseStamped: the tool pose from the physics engine

The joint trajectory controller's own topics and action are trajectory_controller_io.py's.
list_controllers also names what other parts of the sim serve as ros2_control controllers:
a RobotIO attribute `listed_controllers`, (name, type) pairs, read at each call (e.g. the
UR's io_and_status_controller, ur_controllers/GPIOController).
"""
from __future__ import annotations

import numpy as np
import pybullet as p
from geometry_msgs.msg import PoseStamped, WrenchStamped

from robot_tasks.controller_topics import CONTACT_TRUTH_TOPIC, TIP_TRUTH_TOPIC
from robot_tasks.nodes.sim import robot_state_io, ur_ft_io
from robot_tasks.nodes.sim.compliant_io import CompliantIO, fill_wrench
from robot_tasks.nodes.sim.controller_manager_io import Broadcaster, ControllerManagerIO, joint_state_broadcaster
from robot_tasks.nodes.sim.convert import WORLD_FRAME, fill_pose, set_stamp
from robot_tasks.sim.controller_switch import trajectory_command_interface


class ControllerIO:
    """controller_manager, compliant controllers and F/T broadcaster of one robot."""

    def __init__(self, node, robot_io):
        self.node, self.robot_io = node, robot_io
        robot = robot_io.robot
        switch = robot.controllers
        broadcasters = [joint_state_broadcaster(robot)]
        self.franka_state = None
        franka = trajectory_command_interface(robot.arm_joint_names) == "effort"
        if franka and switch.sensor is not None:
            self.franka_state = robot_state_io.FrankaStateIO(node, robot_io)
            broadcasters.append(Broadcaster(robot_state_io.NAME, robot_state_io.BROADCASTER_TYPE))
        self.ur_ft = None
        if not franka and ur_ft_io.has_ur_sensor_joint(robot):
            self.ur_ft = ur_ft_io.URForceTorqueIO(node, robot_io)
            broadcasters.append(Broadcaster(*ur_ft_io.BROADCASTER))
        self.manager = ControllerManagerIO(node, robot_io, broadcasters)
        self.compliant = [CompliantIO(node, robot_io, name) for name in switch.compliant]
        self._truth = None
        if self.compliant:
            topic = robot_io.topic
            self._truth = (node.create_publisher(WrenchStamped, topic(CONTACT_TRUTH_TOPIC), 10),
                           node.create_publisher(PoseStamped, topic(TIP_TRUTH_TOPIC), 10))

    # --- state out (stepping thread, at the joint-state rate) ---------------------------
    def publish(self, ros_seconds: float) -> None:
        for controller in self.compliant:
            controller.publish(ros_seconds)
        if self.franka_state is not None:
            self.franka_state.publish(ros_seconds)
        if self.ur_ft is not None:
            self.ur_ft.publish(ros_seconds)
        if self._truth is not None:
            self._publish_truth(ros_seconds)

    def _publish_truth(self, ros_seconds: float) -> None:
        robot = self.robot_io.robot
        world, force = robot.world, np.zeros(3)
        for body in world.static_bodies.values():
            for c in p.getContactPoints(robot.body_id, body, physicsClientId=world.client):
                force -= np.asarray(c[7]) * c[9]     # normal on B points to the robot: push is -n
        contact = WrenchStamped()
        contact.header.frame_id = WORLD_FRAME
        set_stamp(contact.header.stamp, ros_seconds)
        fill_wrench(contact.wrench, np.concatenate([force, np.zeros(3)]))
        tip = PoseStamped()
        tip.header = contact.header
        fill_pose(tip.pose, *robot.ee_pose())
        contact_pub, tip_pub = self._truth
        contact_pub.publish(contact)
        tip_pub.publish(tip)
