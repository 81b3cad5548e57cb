"""One compliant controller's ROS face, commanded the way an open-source ros2_control controller is.

The control law runs in the sim's physics loop (robot_tasks.sim.compliant); over DDS go
only targets, parameters and feedback, as with a real controller next to the hardware.

Cartesian controllers ("osc", "hybrid_press"): FZI's cartesian_compliance_controller
(fzi-forschungszentrum-informatik/cartesian_controllers, ros2 branch,
cartesian_motion_controller.cpp / cartesian_force_controller.cpp / cartesian_controller_base.cpp),
so a real cell runs that controller under the same name:

  sub  <ns>/<c>/target_frame      geometry_msgs/PoseStamped   tool target, header.frame_id must
                                  be the robot's base link (others are ignored with a warning,
                                  as FZI does); NaN ignored
  sub  <ns>/<c>/target_wrench     geometry_msgs/WrenchStamped the wrench the tool should exert:
                                  end-effector axes with `hand_frame_control` true (FZI's
                                  default), base axes with false
  sub  <ns>/<c>/ft_sensor_wrench  geometry_msgs/WrenchStamped FZI's sensor input. The sim's laws
                                  read their F/T sensor inside the control loop, so a message
                                  here changes nothing (logged once)
  pub  <ns>/<c>/current_pose      geometry_msgs/PoseStamped   measured tool pose, base link, while
  pub  <ns>/<c>/current_twist     geometry_msgs/TwistStamped  active (FZI: solver.publish_state_feedback)
  srv  <ns>/<c>/{get,set,list}_parameters  stiffness.trans_x ... stiffness.rot_z (the law's task
                                  frame axes; FZI: compliance_ref_link), hand_frame_control,
                                  and read-only robot_base_link, end_effector_link, joints

A message for an inactive controller is dropped (FZI's callbacks return when inactive).
Where the sim's law differs from FZI's forward-dynamics solver: it is a torque-level
operational-space impedance (robot_tasks.control.compliance), "hybrid_press" force-controls
the wall normal (FZI: stiffness 0 along that axis of compliance_ref_link), and stiffness
is in 1/s² of the decoupled unit-mass arm, so a real cell tunes its own numbers.

Joint impedance ("joint_impedance"): no open-source ros2_control controller renders joint
impedance from joint targets on a torque interface, so it keeps the shape of ros2_controllers'
forward_command_controller — `<ns>/<c>/commands` std_msgs/Float64MultiArray, one position per
arm joint — and a real cell must supply a controller of type robot_tasks/JointImpedanceController
with that topic (e.g. franka_example_controllers' JointImpedanceExampleController, which has
no command input today, given one).
"""
from __future__ import annotations

import math

import numpy as np
import pybullet as p
from geometry_msgs.msg import PoseStamped, TwistStamped, WrenchStamped
from std_msgs.msg import Float64MultiArray

from robot_tasks.control.compliance.task_frame import rotate_twist
from robot_tasks.control.pose import Pose
from robot_tasks.controller_topics import (
    CURRENT_POSE_TOPIC,
    CURRENT_TWIST_TOPIC,
    FT_SENSOR_WRENCH_TOPIC,
    HAND_FRAME_PARAMETER,
    JOINT_COMMANDS_TOPIC,
    STIFFNESS_PARAMETERS,
    TARGET_FRAME_TOPIC,
    TARGET_WRENCH_TOPIC,
)
from robot_tasks.nodes.sim.controller_parameters import ControllerParameter, ParameterServices
from robot_tasks.nodes.sim.convert import fill_pose, set_stamp
from robot_tasks.sim.errors import CommandRejected


def base_link(robot) -> str:
    return p.getBodyInfo(robot.body_id, physicsClientId=robot.world.client)[0].decode()


def wrench_values(msg) -> np.ndarray:
    f, t = msg.force, msg.torque
    return np.array([f.x, f.y, f.z, t.x, t.y, t.z], float)


def fill_wrench(msg, values) -> None:
    msg.force.x, msg.force.y, msg.force.z = (float(v) for v in values[:3])
    msg.torque.x, msg.torque.y, msg.torque.z = (float(v) for v in values[3:6])


class CompliantIO:
    """Topics and parameter services of one compliant controller (see the module docstring)."""

    def __init__(self, node, robot_io, name: str):
        self.node, self.robot_io, self.name = node, robot_io, name
        self._log = node.get_logger()
        topic, post = robot_io.topic, node.inbox.post
        relative = lambda pattern: pattern.format(controller=name)   # noqa: E731
        self.hand_frame_control = True                                # FZI's default
        self._sensor_input_seen = False
        self._pose_pub = self._twist_pub = None
        shell = self.shell
        if not shell.cartesian:
            node.create_subscription(Float64MultiArray, topic(relative(JOINT_COMMANDS_TOPIC)),
                                     lambda msg: post(self._apply_joints, msg), 10)
            return
        for pattern, msg_type, apply in ((TARGET_FRAME_TOPIC, PoseStamped, self._apply_pose),
                                         (TARGET_WRENCH_TOPIC, WrenchStamped, self._apply_wrench)):
            node.create_subscription(msg_type, topic(relative(pattern)),
                                     lambda msg, apply=apply: post(apply, msg), 10)
        node.create_subscription(WrenchStamped, topic(relative(FT_SENSOR_WRENCH_TOPIC)),
                                 self._on_sensor_input, 10)
        self._pose_pub = node.create_publisher(PoseStamped, topic(relative(CURRENT_POSE_TOPIC)), 3)
        self._twist_pub = node.create_publisher(TwistStamped, topic(relative(CURRENT_TWIST_TOPIC)), 3)
        self._base = base_link(robot_io.robot)
        self.parameters = ParameterServices(node, topic, name, self._parameters())

    @property
    def shell(self):
        return self.robot_io.robot.controllers.compliant[self.name]   # a reset builds a new one

    # --- parameters (stepping thread) ------------------------------------------------------
    def _parameters(self) -> list[ControllerParameter]:
        params = [ControllerParameter("robot_base_link", lambda: self._base),
                  ControllerParameter("end_effector_link", lambda: self.robot_io.robot.ee_link),
                  ControllerParameter("joints", lambda: list(self.robot_io.robot.arm_joint_names)),
                  ControllerParameter(HAND_FRAME_PARAMETER, lambda: self.hand_frame_control,
                                      self._set_hand_frame_control)]
        for axis, key in enumerate(STIFFNESS_PARAMETERS):
            params.append(ControllerParameter(key, lambda axis=axis: float(self.shell.stiffness[axis]),
                                              lambda value, axis=axis: self._set_stiffness(axis, value)))
        return params

    def _set_stiffness(self, axis: int, value) -> None:
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise CommandRejected(f"{STIFFNESS_PARAMETERS[axis]} must be a number, got {value!r}")
        stiffness = self.shell.stiffness.copy()
        stiffness[axis] = float(value)
        self.shell.set_stiffness(stiffness)

    def _set_hand_frame_control(self, value) -> None:
        if not isinstance(value, bool):
            raise CommandRejected(f"{HAND_FRAME_PARAMETER} must be true or false, got {value!r}")
        self.hand_frame_control = value

    # --- targets in (stepping thread) --------------------------------------------------------
    def _active_shell(self, what: str):
        shell = self.shell
        if not shell.active:
            self._reject(what, f"'{self.name}' is not active (active: '{self.robot_io.robot.controllers.active}')")
            return None
        return shell

    def _reject(self, what: str, reason: str) -> None:
        self.robot_io.reject(f"{self.name} {what}", f"{self.name}/{what}", reason)

    def _apply_pose(self, msg: PoseStamped) -> None:
        shell = self._active_shell("target_frame")
        if shell is None:
            return
        pos, ori = msg.pose.position, msg.pose.orientation
        values = [pos.x, pos.y, pos.z, ori.x, ori.y, ori.z, ori.w]
        if not all(math.isfinite(v) for v in values):
            self._reject("target_frame", "NaN detected in target pose. Ignoring input.")
            return
        if msg.header.frame_id != self._base:
            self._reject("target_frame", f"Got target pose in wrong reference frame. Expected: "
                                         f"{self._base} but got {msg.header.frame_id}")
            return
        try:
            shell.set_pose_target(Pose(values[:3], values[3:]))
        except (CommandRejected, ValueError) as err:
            self._reject("target_frame", getattr(err, "reason", str(err)))

    def _apply_wrench(self, msg: WrenchStamped) -> None:
        shell = self._active_shell("target_wrench")
        if shell is None:
            return
        wrench = wrench_values(msg.wrench)
        if not np.all(np.isfinite(wrench)):
            self._reject("target_wrench", "NaN detected in target wrench. Ignoring input.")
            return
        if self.hand_frame_control:            # end-effector axes -> base axes, at the tool now
            wrench = rotate_twist(shell.tip_pose().rotation, wrench)
        try:
            shell.set_wrench_target(wrench)
        except CommandRejected as err:
            self._reject("target_wrench", err.reason)

    def _apply_joints(self, msg: Float64MultiArray) -> None:
        shell = self._active_shell("commands")
        if shell is None:
            return
        joints = len(self.robot_io.robot.arm_joint_names)
        if len(msg.data) != joints:
            self._reject("commands", f"expected {joints} joint positions, got {len(msg.data)}")
            return
        try:
            shell.set_joint_target(msg.data)
        except CommandRejected as err:
            self._reject("commands", err.reason)

    def _on_sensor_input(self, _msg) -> None:        # executor thread
        if not self._sensor_input_seen:
            self._sensor_input_seen = True
            self._log.info(f"{self.name}/ft_sensor_wrench: the sim's controllers read their F/T "
                           "sensor in the control loop; messages here change nothing")

    # --- feedback out (stepping thread, at the joint-state rate) ---------------------------
    def publish(self, ros_seconds: float) -> None:
        """current_pose / current_twist while this controller is active (as FZI publishes)."""
        if self._pose_pub is None or not self.shell.active:
            return
        shell = self.shell
        pose = PoseStamped()
        pose.header.frame_id = self._base
        set_stamp(pose.header.stamp, ros_seconds)
        tip = shell.tip_pose()
        fill_pose(pose.pose, tip.position, tip.quaternion)
        self._pose_pub.publish(pose)
        twist = TwistStamped()
        twist.header = pose.header
        v = shell.tip_twist()
        twist.twist.linear.x, twist.twist.linear.y, twist.twist.linear.z = (float(x) for x in v[:3])
        twist.twist.angular.x, twist.twist.angular.y, twist.twist.angular.z = (float(x) for x in v[3:])
        self._twist_pub.publish(twist)
