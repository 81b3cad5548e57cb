"""ComplianceServer: the CompliantMove action, a client of a real arm's controllers (or the sim's).

What it uses, under `robot_namespace` <ns> (robot_tasks.controller_topics):
    srv  <ns>/controller_manager/list_controllers   controller_manager_msgs: which controllers,
                                                    their types (what they take), who is active
    srv  <ns>/controller_manager/switch_controller  controller_manager_msgs: activate the goal's
                                                    controller, deactivate its interfaces' holder
    srv  <ns>/<c>/get_parameters, set_parameters    rcl_interfaces: stiffness.*, hand_frame_control
    pub  <ns>/<c>/target_frame                      geometry_msgs/PoseStamped, base frame,
                                                    streamed at command_rate
    pub  <ns>/<c>/target_wrench                     geometry_msgs/WrenchStamped, base axes
    sub  <ns>/<c>/current_pose                      the measured tool pose (its stamps are the
                                                    goal's clock)
    sub  <ns>/<wrench_topic>                        the measured wrench: franka_robot_state_broadcaster/
                                                    external_wrench_in_base_frame by default
    action compliant_move                           robot_tasks_interfaces/CompliantMove
with <c> a controller commanded like FZI's cartesian_compliance_controller
(fzi-forschungszentrum-informatik/cartesian_controllers, ros2 branch); a real cell runs that
controller with `solver.publish_state_feedback: true` (for current_pose).

A goal: list the controllers (a controller_manager that does not answer within
switch_timeout ends it SWITCH_FAILED, naming the service), check it (INVALID_GOAL), set the
controller's parameters — `hand_frame_control` false (the server states wrenches in base
axes) and the goal's stiffness, or the controller's own as configured (read once) —, switch
(STRICT; a refusal is SWITCH_FAILED with controller_manager's message), wait for a fresh
current_pose and wrench (NO_STATE), then glide the target and ramp the wrench.

One goal owns the arm at a time: a newer goal preempts the running one (PREEMPTED). Time
inside a goal (the glide, hold, timeout) is the robot's clock, read from current_pose
stamps; staleness is judged on the wall clock, so a robot that goes silent gives NO_STATE
instead of a goal that never ends. Cancel and a guard that trips hold the tool where it is
measured (the target jumps to the tip).
"""
from __future__ import annotations

import time
import traceback

import numpy as np
from geometry_msgs.msg import PoseStamped, WrenchStamped
from rclpy.action import ActionServer, CancelResponse, GoalResponse
from rclpy.node import Node
from rclpy.parameter import Parameter
from rclpy.qos import QoSProfile, ReliabilityPolicy

from robot_tasks.control.compliance import along_normal, to_frame
from robot_tasks.control.compliance.task_frame import rotate_twist
from robot_tasks.control.pose import Pose
from robot_tasks.controller_topics import (
    CURRENT_POSE_TOPIC,
    HAND_FRAME_PARAMETER,
    STIFFNESS_PARAMETERS,
    TARGET_FRAME_TOPIC,
    TARGET_WRENCH_TOPIC,
    under,
)
from robot_tasks.nodes.compliance_server.controller_client import ControllerCallFailed, ControllerClient
from robot_tasks.nodes.compliance_server.goal_check import InvalidGoal, check_goal
from robot_tasks.nodes.compliance_server.parameters import declare_compliance_parameters
from robot_tasks.ros.async_tools import sleep
from robot_tasks.ros.error_codes import result_code
from robot_tasks.ros.goal_outcome import end_goal
from robot_tasks_interfaces.action import CompliantMove

Result, Feedback = CompliantMove.Result, CompliantMove.Feedback
POLL_S = 0.01


def stamp_seconds(stamp) -> float:
    return stamp.sec + stamp.nanosec * 1e-9


class GoalFailure(Exception):
    """Ends a goal with outcome `code` (a Result constant's name) and a message."""

    def __init__(self, code: str, message: str):
        super().__init__(message)
        self.code, self.message = code, message


class ControllerLink:
    """The server's topics to and from one controller, and what it last set on it."""

    def __init__(self, node, namespace: str, controller: str):
        name = lambda pattern: under(namespace, pattern.format(controller=controller))  # noqa: E731
        self.frame_pub = node.create_publisher(PoseStamped, name(TARGET_FRAME_TOPIC), 10)
        self.wrench_pub = node.create_publisher(WrenchStamped, name(TARGET_WRENCH_TOPIC), 10)
        self.pose_topic = name(CURRENT_POSE_TOPIC)
        self.pose, self.pose_at = None, 0.0                 # the newest current_pose, its receipt
        node.create_subscription(PoseStamped, self.pose_topic, self._on_pose, 1)
        self.configured_stiffness = None                    # as the cell configured it
        self.stiffness = None                               # what it is now
        self.hand_frame_set = False
        self.wrench_sent = np.zeros(6)                      # task axes; ramps start here

    def _on_pose(self, msg) -> None:
        self.pose, self.pose_at = msg, time.monotonic()


class ComplianceServer(Node):
    def __init__(self, node_name: str = "compliance_server", **kwargs):
        super().__init__(node_name, **kwargs)
        self.cfg = cfg = declare_compliance_parameters(self)
        ns = cfg.robot_namespace
        self.ft, self.ft_at = None, 0.0
        reliability = ReliabilityPolicy.BEST_EFFORT if cfg.wrench_best_effort else ReliabilityPolicy.RELIABLE
        self.wrench_topic = under(ns, cfg.wrench_topic)
        self.create_subscription(WrenchStamped, self.wrench_topic, self._on_ft,
                                 QoSProfile(depth=1, reliability=reliability))
        self.controllers = ControllerClient(self, ns, cfg.switch_timeout)
        self._links: dict[str, ControllerLink] = {}
        self._active = None
        ActionServer(self, CompliantMove, "compliant_move", execute_callback=self._execute,
                     goal_callback=lambda _goal: GoalResponse.ACCEPT,
                     handle_accepted_callback=self._accepted,
                     cancel_callback=lambda _handle: CancelResponse.ACCEPT)
        self.get_logger().info(
            f"compliance_server for '/{ns}': frames {sorted(cfg.frames)}, default controller "
            f"'{cfg.default_controller}', targets at {cfg.command_rate:g} Hz, wrench from '{self.wrench_topic}'")

    # ------------------------------------------------------------ inputs
    def _on_ft(self, msg) -> None:
        self.ft, self.ft_at = msg, time.monotonic()

    def _link(self, controller: str) -> ControllerLink:
        link = self._links.get(controller)
        if link is None:
            link = self._links[controller] = ControllerLink(self, self.cfg.robot_namespace, controller)
        return link

    def _fresh(self, link: ControllerLink, since: float = 0.0):
        """(current_pose, measured force in base axes), both received after `since` and
        fresher than state_timeout, else NO_STATE."""
        now, limit = time.monotonic(), self.cfg.state_timeout
        if link.pose is None or link.pose_at < since or now - link.pose_at > limit or \
                self.ft is None or self.ft_at < since or now - self.ft_at > limit:
            raise GoalFailure("NO_STATE", f"no fresh '{link.pose_topic}' and '{self.wrench_topic}' "
                                          f"(within {limit:g} s)")
        if self.ft.header.frame_id != self.cfg.base_frame:
            raise GoalFailure("NO_STATE", f"'{self.wrench_topic}' is in frame '{self.ft.header.frame_id}', "
                                          f"expected the base frame '{self.cfg.base_frame}'")
        f = self.ft.wrench.force
        return link.pose, (f.x, f.y, f.z)

    async def _wait_fresh(self, handle, slot, link, since: float) -> None:
        deadline = time.monotonic() + self.cfg.switch_timeout
        while True:
            try:
                self._fresh(link, since)
                return
            except GoalFailure:
                self._check_interrupt(handle, slot)
                if time.monotonic() > deadline:
                    raise
            await sleep(self, POLL_S)

    # ------------------------------------------------------------ the controller
    async def _prepare(self, checked, link: ControllerLink) -> None:
        """Set the controller's parameters for this goal (before it is switched on)."""
        changes, wanted = [], link.stiffness
        if "wrench" in checked.takes and not link.hand_frame_set:
            changes.append(Parameter(HAND_FRAME_PARAMETER, value=False))
        if "stiffness" in checked.takes:
            if link.configured_stiffness is None:
                values = await self.controllers.get_parameters(checked.controller, STIFFNESS_PARAMETERS)
                link.configured_stiffness = link.stiffness = np.array([v.double_value for v in values])
            wanted = checked.move.stiffness if checked.move.stiffness is not None else link.configured_stiffness
            if not np.array_equal(wanted, link.stiffness):
                changes += [Parameter(n, value=float(v)) for n, v in zip(STIFFNESS_PARAMETERS, wanted)]
        if changes:
            try:
                await self.controllers.set_parameters(checked.controller, changes)
            except ControllerCallFailed:
                link.stiffness = None           # some may have been set: set them all next time
                raise
            link.hand_frame_set = link.hand_frame_set or "wrench" in checked.takes
            link.stiffness = wanted

    async def _switch(self, checked, listed, link) -> float:
        """Make the goal's controller the active one; the monotonic time it became so (0 if it was)."""
        if listed[checked.controller].state == "active":
            return 0.0
        await self.controllers.switch_to(checked.controller, listed)
        link.wrench_sent = np.zeros(6)        # activation: the controller exerts nothing
        return time.monotonic()

    # ------------------------------------------------------------ goals
    def _accepted(self, handle) -> None:
        if self._active is not None:
            self._active["preempted"] = True
        self._active = {"handle": handle, "preempted": False}
        handle.execute()

    def _check_interrupt(self, handle, slot) -> None:
        if handle.is_cancel_requested:
            raise GoalFailure("CANCELLED", "cancelled; holding the tool where it is")
        if slot["preempted"]:
            raise GoalFailure("PREEMPTED", "preempted by a newer goal")

    async def _execute(self, handle):
        slot = self._active if self._active and self._active["handle"] is handle else \
            {"handle": handle, "preempted": True}
        result = Result()
        checked = link = None
        try:
            try:
                listed = await self.controllers.controllers()
            except ControllerCallFailed as err:
                raise GoalFailure("SWITCH_FAILED", str(err)) from None
            checked = check_goal(handle.request, self.cfg, {n: c.type for n, c in listed.items()})
            link = self._link(checked.controller)
            try:
                await self._prepare(checked, link)
            except ControllerCallFailed as err:
                code = "INVALID_GOAL" if err.refused else "SWITCH_FAILED"
                raise GoalFailure(code, str(err)) from None
            self._check_interrupt(handle, slot)
            try:
                since = await self._switch(checked, listed, link)
            except ControllerCallFailed as err:
                raise GoalFailure("SWITCH_FAILED", str(err)) from None
            await self._wait_fresh(handle, slot, link, since)
            code, message = await self._run(handle, slot, checked, link, result)
        except InvalidGoal as err:
            code, message = "INVALID_GOAL", str(err)
        except GoalFailure as failure:
            code, message = failure.code, failure.message
            if code == "CANCELLED" and link is not None:
                self._hold(checked, link)
        except Exception as exc:  # a bug: report it, keep serving
            self.get_logger().error(f"compliant_move crashed:\n{traceback.format_exc()}")
            code, message = "INTERNAL_ERROR", f"{type(exc).__name__}: {exc}"
        finally:
            if self._active is slot:
                self._active = None
        result.error_code, result.message = result_code(Result, code), message
        end_goal(handle, code, self.get_logger(), f"compliant_move: {code}: {message}")
        return result

    def _tip(self, checked, pose_msg) -> np.ndarray:
        p = pose_msg.pose.position
        return to_frame(checked.move.frame, (p.x, p.y, p.z))

    def _measure(self, checked, pose_msg, force):
        """(tip in the task frame, normal force, in-plane error, full error)."""
        tip = self._tip(checked, pose_msg)
        error = tip - checked.move.target.position
        return tip, along_normal(checked.move.frame, force), float((error[:2] ** 2).sum() ** 0.5), \
            float((error ** 2).sum() ** 0.5)

    def _hold(self, checked, link) -> None:
        """Target the measured tip (cancel, a tripped guard): the tool stays where it is."""
        if link.pose is not None:
            self._publish(checked, link, self._tip(checked, link.pose), link.wrench_sent)

    def _publish(self, checked, link, position, wrench) -> None:
        """The target at `position` (task frame, the goal's orientation) and `wrench` (task axes)."""
        frame = checked.move.frame
        pose = Pose.from_se3(frame.to_se3() * Pose(position, checked.move.target.quaternion).to_se3())
        stamp = self.get_clock().now().to_msg()
        msg = PoseStamped()
        msg.header.frame_id, msg.header.stamp = self.cfg.base_frame, stamp
        p, o = msg.pose.position, msg.pose.orientation
        p.x, p.y, p.z = (float(v) for v in pose.position)
        o.x, o.y, o.z, o.w = (float(v) for v in pose.quaternion)
        link.frame_pub.publish(msg)
        if "wrench" in checked.takes:
            base = rotate_twist(frame.rotation, np.asarray(wrench, float))
            out = WrenchStamped()
            out.header.frame_id, out.header.stamp = self.cfg.base_frame, stamp
            f, t = out.wrench.force, out.wrench.torque
            f.x, f.y, f.z, t.x, t.y, t.z = (float(v) for v in base)
            link.wrench_pub.publish(out)
            link.wrench_sent = np.asarray(wrench, float)

    async def _run(self, handle, slot, checked, link, result):
        pose, _ = self._fresh(link)
        start = self._tip(checked, pose)
        t0 = stamp_seconds(pose.header.stamp)
        start_wrench = link.wrench_sent.copy()
        end = checked.move.duration + checked.hold
        guarded = checked.stop_force > 0.0
        period = 1.0 / self.cfg.command_rate
        next_feedback = 0.0
        while True:
            self._check_interrupt(handle, slot)
            pose, force = self._fresh(link)
            elapsed = stamp_seconds(pose.header.stamp) - t0
            wrench = checked.move.wrench_at(elapsed, start_wrench)
            self._publish(checked, link, checked.move.position_at(elapsed, start), wrench)
            tip, normal, in_plane, full = self._measure(checked, pose, force)
            result.normal_force, result.in_plane_error, result.position_error = normal, in_plane, full
            if time.monotonic() >= next_feedback:   # feedback is for people and trees: 10 Hz
                next_feedback = time.monotonic() + 1.0 / self.cfg.feedback_rate
                phase = "guarded" if guarded else ("moving" if elapsed < checked.move.duration else "holding")
                handle.publish_feedback(Feedback(normal_force=normal, in_plane_error=in_plane,
                                                 position_error=full, phase=phase))
            if guarded and normal >= checked.stop_force:
                self._publish(checked, link, tip, wrench)
                return "SUCCESS", (f"contact: {normal:.2f} N along the {checked.frame_name} normal "
                                   f"after {elapsed:.2f} s")
            if elapsed >= end:
                if guarded:
                    self._publish(checked, link, tip, wrench)
                    return "NO_CONTACT", (f"no {checked.stop_force:g} N contact within "
                                          f"{checked.move.duration:g} s (force {normal:.2f} N)")
                return "SUCCESS", (f"{checked.controller}: {normal:.2f} N, in-plane error "
                                   f"{in_plane * 1000:.2f} mm in {checked.frame_name}")
            if elapsed > checked.timeout:
                raise GoalFailure("TIMEOUT", f"not done after {checked.timeout:g} s")
            await sleep(self, period)
