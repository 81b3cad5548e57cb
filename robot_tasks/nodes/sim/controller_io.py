"""One arm's controllers over ROS, the way ros2_control's controller_manager offers them.

On a real torque-controlled arm the compliant controller (impedance, operational space)
runs inside the control loop next to the drives, at the loop's rate, and the rest of the
system only *commands* it over topics and *switches* it over a service; torques never
cross DDS. The sim is that control loop: `robot_tasks.sim.compliant` runs the law before
every physics sub-step; this module is its ROS face. Under the robot's namespace `<ns>`,
for a robot that has compliant controllers (franka_press):

  srv  <ns>/controller_manager/switch_controller   robot_tasks_interfaces/SwitchController
  srv  <ns>/controller_manager/list_controllers    robot_tasks_interfaces/ListControllers
  sub  <ns>/<controller>/command                   std_msgs/Float64MultiArray (below)
  pub  <ns>/ft_sensor/wrench                       geometry_msgs/WrenchStamped
  pub  <ns>/controller_state                       robot_tasks_interfaces/CompliantControllerState
  pub  <ns>/ground_truth/contact_force             geometry_msgs/WrenchStamped (grading only)
  pub  <ns>/ground_truth/tip_pose                  geometry_msgs/PoseStamped   (grading only)

Command layout (one flat message, like ros2_control's forward command controllers): the
controller's own command (`law.action_dim` numbers, in its task frame; ListControllers'
`command_layout` names the blocks, e.g. "pose_abs,wrench_abs,stiffness" = 7 + 6 + 6), or
the same preceded by 7 numbers x y z qx qy qz qw: the task frame's pose in the base frame,
replacing the controller's task frame (operational-space controllers only). A command for a
controller that is not active, of the wrong length, or that the law refuses (NaN, gains
outside their limits) is logged and dropped; the previous command stays in force.

The F/T wrench is the tool-on-environment wrench in the base axes, moment about the TCP,
tared at the last switch from position control (robot_tasks.sim.ft_sensor). The
ground-truth topics (contact normal forces between the robot and the scene's static bodies,
in world axes; the tool pose from the physics engine) are for tests and grading; no
controller or tree reads them.

Service callbacks run on the executor thread and wait (Inbox.call) for the stepping thread,
which alone touches the World; command messages are posted to the Inbox.
"""
from __future__ import annotations

import numpy as np
import pybullet as p
from geometry_msgs.msg import PoseStamped, WrenchStamped
from std_msgs.msg import Float64MultiArray

from robot_tasks.control.compliance.compliant_move import FRAME_BLOCK
from robot_tasks.control.errors import ControlError
from robot_tasks.control.pose import Pose
from robot_tasks.nodes.sim.convert import WORLD_FRAME, fill_pose, set_stamp
from robot_tasks.nodes.sim.inbox import InboxClosed
from robot_tasks.ros.controller_topics import (COMMAND_TOPIC, CONTACT_TRUTH_TOPIC, FT_TOPIC,
                                               LIST_SERVICE, STATE_TOPIC, SWITCH_SERVICE,
                                               TIP_TRUTH_TOPIC)
from robot_tasks.sim.controller_switch import TRAJECTORY
from robot_tasks.sim.errors import SimError
from robot_tasks_interfaces.msg import CompliantControllerState
from robot_tasks_interfaces.srv import ListControllers, SwitchController


def command_layout(law) -> str:
    """The blocks of a law's command, comma-separated ("" for the trajectory controller)."""
    blocks = list(getattr(law, "target_types", None) or ["joint_positions"])
    gains = {"fixed": [], "variable_kp": ["stiffness"], "variable": ["stiffness", "damping_ratio"]}
    return ",".join(blocks + gains[law.mode])


def switch_controllers(switch, activate, deactivate) -> tuple[bool, str]:
    """controller_manager's switch on a ControllerSwitch: (ok, what was done or why not)."""
    names, active = switch.names(), switch.active
    unknown = [n for n in [*activate, *deactivate] if n not in names]
    if unknown:
        return False, f"unknown controller(s) {unknown}; known: {names}"
    if len(activate) > 1:
        return False, f"one arm runs one controller: cannot activate {list(activate)} together"
    stale = [n for n in deactivate if n != active]
    if stale:
        return False, f"cannot deactivate {stale}: '{active}' is the running controller"
    if not activate and not deactivate:
        return False, "nothing to activate or deactivate"
    target = activate[0] if activate else TRAJECTORY   # stopping one hands the arm back
    switch.switch(target)
    return True, f"{active} -> {target}" if target != active else f"{target} already active"


def apply_command(switch, controller: str, data) -> str | None:
    """Give `data` to `controller`'s law; None if taken, else the reason it was dropped."""
    shell = switch.compliant.get(controller)
    if shell is None:
        return f"no compliant controller '{controller}'"
    if switch.active != controller:
        return f"'{controller}' is not active (active: '{switch.active}'); switch to it first"
    law, values = shell.law, np.asarray(data, float)
    size = law.action_dim
    framed = hasattr(law, "task_frame") and len(values) == FRAME_BLOCK + size
    if len(values) != size and not framed:
        extra = f" (or {FRAME_BLOCK} task-frame numbers + {size})" if hasattr(law, "task_frame") else ""
        return f"expected {size} numbers [{command_layout(law)}]{extra}, got {len(values)}"
    try:
        if framed:
            frame = Pose(values[:3], values[3:FRAME_BLOCK])
            law.set_command(values[FRAME_BLOCK:], task_frame=frame)
        else:
            law.set_command(values)
    except ControlError as err:
        return str(err)
    return None


class ControllerIO:
    """Switch/list services, command topics and state topics of one robot's controllers."""

    def __init__(self, node, robot_io):
        self.node, self.robot_io = node, robot_io
        self._log = node.get_logger()
        topic = robot_io.topic
        self._ft_pub = node.create_publisher(WrenchStamped, topic(FT_TOPIC), 10)
        self._state_pub = node.create_publisher(CompliantControllerState, topic(STATE_TOPIC), 10)
        self._contact_pub = node.create_publisher(WrenchStamped, topic(CONTACT_TRUTH_TOPIC), 10)
        self._tip_pub = node.create_publisher(PoseStamped, topic(TIP_TRUTH_TOPIC), 10)
        node.create_service(SwitchController, topic(SWITCH_SERVICE), self._on_switch)
        node.create_service(ListControllers, topic(LIST_SERVICE), self._on_list)
        post = node.inbox.post
        for name in self.switch.compliant:
            node.create_subscription(
                Float64MultiArray, topic(COMMAND_TOPIC.format(controller=name)),
                lambda msg, name=name: post(self._apply, name, msg), 10)

    @property
    def switch(self):
        return self.robot_io.robot.controllers     # rebuilt with the robot on a reset

    # --- services (executor thread; the work runs on the stepping thread) ------------
    def _on_switch(self, request, response):
        try:
            response.ok, text = self.node.inbox.call(
                switch_controllers, self.switch, list(request.activate), list(request.deactivate))
        except (SimError, InboxClosed, TimeoutError) as err:
            response.ok, text = False, f"switch failed: {err}"
        response.message = f"{self.robot_io.name}: {text}"
        if response.ok:
            self._log.info(f"switch_controller: {response.message}")
        else:
            self._log.warning(f"switch_controller: {response.message}")
        return response

    def _on_list(self, _request, response):
        def listing():
            switch = self.switch
            laws = [None] + [c.law for c in switch.compliant.values()]
            return (switch.names(), [n == switch.active for n in switch.names()],
                    ["" if law is None else command_layout(law) for law in laws])
        try:
            response.names, response.active, response.command_layout = self.node.inbox.call(listing)
        except (InboxClosed, TimeoutError) as err:
            self._log.warning(f"list_controllers failed: {err}")
        return response

    # --- commands in (stepping thread) -------------------------------------------------
    def _apply(self, controller: str, msg: Float64MultiArray) -> None:
        reason = apply_command(self.switch, controller, msg.data)
        if reason is not None:
            self.robot_io.reject(f"{controller} command", COMMAND_TOPIC.format(controller=controller),
                                 reason)

    # --- state out (stepping thread, at the joint-state rate) ---------------------------
    def publish(self, ros_seconds: float) -> None:
        switch, robot = self.switch, self.robot_io.robot
        first = next(iter(switch.compliant.values()))
        kinematics = first.law.dynamics.kinematics
        q, _ = first.motors.read()
        tip = kinematics.fk(q)
        shell = switch.current()
        target = getattr(shell.law, "pose_target", None) if shell is not None else None
        sensor = next((c.sensor for c in switch.compliant.values() if c.sensor is not None), None)
        wrench = sensor.contact_wrench() if sensor is not None else np.zeros(6)
        frame = p.getBodyInfo(robot.body_id, physicsClientId=robot.world.client)[0].decode()
        state = CompliantControllerState(active=switch.active, control_rate=robot.world.physics_rate)
        state.header.frame_id = frame
        set_stamp(state.header.stamp, ros_seconds)
        fill_pose(state.tip, tip.position, tip.quaternion)
        target = target if target is not None else tip
        fill_pose(state.target, target.position, target.quaternion)
        _fill_wrench(state.wrench, wrench)
        state.torque = shell.motors.applied.tolist() if shell is not None else []
        self._state_pub.publish(state)
        ft = WrenchStamped()
        ft.header = state.header
        _fill_wrench(ft.wrench, wrench)
        self._ft_pub.publish(ft)
        self._publish_truth(robot, state.header.stamp)

    def _publish_truth(self, robot, stamp) -> None:
        world, force = robot.world, np.zeros(3)
        for body in world.static_bodies.values():
            for c in p.getContactPoints(robot.body_id, body, physicsClientId=world.client):
                force -= np.asarray(c[7]) * c[9]     # normal on B points to the robot: push is -n
        contact = WrenchStamped()
        contact.header.frame_id = WORLD_FRAME
        contact.header.stamp = stamp
        _fill_wrench(contact.wrench, np.concatenate([force, np.zeros(3)]))
        self._contact_pub.publish(contact)
        position, orientation = robot.ee_pose()
        tip = PoseStamped()
        tip.header.frame_id = WORLD_FRAME
        tip.header.stamp = stamp
        fill_pose(tip.pose, position, orientation)
        self._tip_pub.publish(tip)


def _fill_wrench(msg, values) -> None:
    msg.force.x, msg.force.y, msg.force.z = (float(v) for v in values[:3])
    msg.torque.x, msg.torque.y, msg.torque.z = (float(v) for v in values[3:6])
