"""ComplianceServer: the CompliantMove action over an arm's compliant controllers.

Topic contract (robot_tasks.ros.controller_topics, under `robot_namespace` <ns>):
    srv  <ns>/controller_manager/list_controllers   which controllers, their command layout
    srv  <ns>/controller_manager/switch_controller  make the goal's controller the active one
    pub  <ns>/<controller>/command                  the target, streamed at command_rate
    sub  <ns>/controller_state                      the measured tool pose, the active controller
    sub  <ns>/ft_sensor/wrench                      the measured contact wrench
    action compliant_move                           robot_tasks_interfaces/CompliantMove

One goal owns the arm at a time: a newer goal preempts the running one (PREEMPTED; the
newer goal's commands take over). Time inside a goal (the glide, hold, timeout) is the
sim's own clock, read from controller_state stamps; staleness is judged on the wall clock,
so a sim that stops gives NO_STATE instead of a goal that never ends. Cancel and a guard
that trips hold the tool where it is measured (the target jumps to the tip).
"""
from __future__ import annotations

import time
import traceback

import numpy as np

from rclpy.action import ActionServer, CancelResponse, GoalResponse
from rclpy.node import Node
from geometry_msgs.msg import WrenchStamped
from std_msgs.msg import Float64MultiArray

from robot_tasks.control.compliance import along_normal, to_frame
from robot_tasks.nodes.compliance_server.goal_check import InvalidGoal, check_goal
from robot_tasks.nodes.compliance_server.parameters import declare_compliance_parameters
from robot_tasks.ros.async_tools import sleep
from robot_tasks.ros.controller_topics import (COMMAND_TOPIC, FT_TOPIC, LIST_SERVICE, STATE_TOPIC,
                                               SWITCH_SERVICE, under)
from robot_tasks.ros.error_codes import result_code
from robot_tasks.ros.goal_outcome import end_goal
from robot_tasks_interfaces.action import CompliantMove
from robot_tasks_interfaces.msg import CompliantControllerState
from robot_tasks_interfaces.srv import ListControllers, SwitchController

Result, Feedback = CompliantMove.Result, CompliantMove.Feedback
POLL_S = 0.01


def stamp_seconds(stamp) -> float:
    return stamp.sec + stamp.nanosec * 1e-9


class GoalFailure(Exception):
    """Ends a goal with outcome `code` (a Result constant's name) and a message."""

    def __init__(self, code: str, message: str):
        super().__init__(message)
        self.code, self.message = code, message


class ComplianceServer(Node):
    def __init__(self, node_name: str = "compliance_server", **kwargs):
        super().__init__(node_name, **kwargs)
        self.cfg = declare_compliance_parameters(self)
        ns = self.cfg.robot_namespace
        self.state = self.ft = None
        self.state_at = self.ft_at = 0.0           # monotonic receipt times
        # depth 1: only the newest reading matters; a queue would hand a busy server old ones
        self.create_subscription(CompliantControllerState, under(ns, STATE_TOPIC), self._on_state, 1)
        self.create_subscription(WrenchStamped, under(ns, FT_TOPIC), self._on_ft, 1)
        self.switch_client = self.create_client(SwitchController, under(ns, SWITCH_SERVICE))
        self.list_client = self.create_client(ListControllers, under(ns, LIST_SERVICE))
        self._layouts: dict | None = None
        self._command_pubs: dict = {}
        self._wrench_sent: dict = {}      # controller -> the last wrench commanded (ramps start there)
        self._active = None
        ActionServer(self, CompliantMove, "compliant_move", execute_callback=self._execute,
                     goal_callback=lambda _goal: GoalResponse.ACCEPT,
                     handle_accepted_callback=self._accepted,
                     cancel_callback=lambda _handle: CancelResponse.ACCEPT)
        self.get_logger().info(
            f"compliance_server for '/{ns}': frames {sorted(self.cfg.frames)}, default controller "
            f"'{self.cfg.default_controller}', commands at {self.cfg.command_rate:g} Hz")

    # ------------------------------------------------------------ inputs
    def _on_state(self, msg) -> None:
        self.state, self.state_at = msg, time.monotonic()

    def _on_ft(self, msg) -> None:
        self.ft, self.ft_at = msg, time.monotonic()

    def _fresh(self):
        """(controller_state, F/T force) if both are fresh, else NO_STATE."""
        now, limit = time.monotonic(), self.cfg.state_timeout
        if self.state is None or now - self.state_at > limit or self.ft is None or now - self.ft_at > limit:
            raise GoalFailure("NO_STATE", f"no fresh '{under(self.cfg.robot_namespace, STATE_TOPIC)}' "
                              f"and '{under(self.cfg.robot_namespace, FT_TOPIC)}' (within {limit:g} s)")
        f = self.ft.wrench.force
        return self.state, (f.x, f.y, f.z)

    async def _wait_fresh(self, handle, slot) -> None:
        """Wait (up to switch_timeout) for fresh controller_state and F/T, else NO_STATE."""
        deadline = time.monotonic() + self.cfg.switch_timeout
        while True:
            try:
                self._fresh()
                return
            except GoalFailure:
                self._check_interrupt(handle, slot)
                if time.monotonic() > deadline:
                    raise
            await sleep(self, POLL_S)

    def _command_pub(self, controller: str):
        pub = self._command_pubs.get(controller)
        if pub is None:
            topic = under(self.cfg.robot_namespace, COMMAND_TOPIC.format(controller=controller))
            pub = self._command_pubs[controller] = self.create_publisher(Float64MultiArray, topic, 10)
        return pub

    # ------------------------------------------------------------ services
    async def _call(self, client, request, what: str):
        deadline = time.monotonic() + self.cfg.switch_timeout
        while not client.service_is_ready():
            if time.monotonic() > deadline:
                raise GoalFailure("SWITCH_FAILED", f"service '{client.srv_name}' is not available")
            await sleep(self, POLL_S)
        future = client.call_async(request)
        while not future.done():
            if time.monotonic() > deadline:
                client.remove_pending_request(future)
                raise GoalFailure("SWITCH_FAILED", f"no answer from '{client.srv_name}' to {what}")
            await sleep(self, POLL_S)
        return future.result()

    async def _controller_layouts(self) -> dict:
        if self._layouts is None:
            response = await self._call(self.list_client, ListControllers.Request(), "list_controllers")
            self._layouts = {name: [b for b in layout.split(",") if b]
                             for name, layout in zip(response.names, response.command_layout)}
        return self._layouts

    async def _switch_to(self, controller: str, handle, slot) -> None:
        state, _ = self._fresh()
        if state.active == controller:
            return
        request = SwitchController.Request(activate=[controller], deactivate=[state.active])
        response = await self._call(self.switch_client, request, f"switch to '{controller}'")
        if not response.ok:
            raise GoalFailure("SWITCH_FAILED", response.message)
        self._wrench_sent[controller] = np.zeros(6)    # activation: the controller exerts nothing
        deadline = time.monotonic() + self.cfg.switch_timeout
        while self._fresh()[0].active != controller:   # the state topic catches up
            self._check_interrupt(handle, slot)
            if time.monotonic() > deadline:
                raise GoalFailure("SWITCH_FAILED", f"controller_state still says '{self.state.active}'")
            await sleep(self, POLL_S)

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
        checked = None
        try:
            await self._wait_fresh(handle, slot)
            checked = check_goal(handle.request, self.cfg, await self._controller_layouts())
            await self._switch_to(checked.controller, handle, slot)
            code, message = await self._run(handle, slot, checked, result)
        except InvalidGoal as err:
            code, message = "INVALID_GOAL", str(err)
        except GoalFailure as failure:
            code, message = failure.code, failure.message
            if code == "CANCELLED" and checked is not None:
                self._hold(checked)
        except Exception as exc:  # a bug: report it, keep serving
            self.get_logger().error(f"compliant_move crashed:\n{traceback.format_exc()}")
            code, message = "INTERNAL_ERROR", f"{type(exc).__name__}: {exc}"
        finally:
            if self._active is slot:
                self._active = None
        result.error_code, result.message = result_code(Result, code), message
        end_goal(handle, code, self.get_logger(), f"compliant_move: {code}: {message}")
        return result

    def _measure(self, checked, state, force):
        """(tip in the task frame, normal force, in-plane error, full error)."""
        p = state.tip.position
        tip = to_frame(checked.move.frame, (p.x, p.y, p.z))
        error = tip - checked.move.target.position
        return tip, along_normal(checked.move.frame, force), float((error[:2] ** 2).sum() ** 0.5), \
            float((error ** 2).sum() ** 0.5)

    def _hold(self, checked) -> None:
        """Target the measured tip (cancel, a tripped guard): the tool stays where it is."""
        if self.state is None:
            return
        p = self.state.tip.position
        tip = to_frame(checked.move.frame, (p.x, p.y, p.z))
        self._publish(checked, tip, self._wrench_sent.get(checked.controller))

    def _publish(self, checked, position, wrench) -> None:
        command = checked.move.command(checked.layout, position, wrench)
        self._command_pub(checked.controller).publish(Float64MultiArray(data=command.tolist()))
        if wrench is not None:
            self._wrench_sent[checked.controller] = np.asarray(wrench, float)

    async def _run(self, handle, slot, checked, result):
        state, _ = self._fresh()
        p = state.tip.position
        start = to_frame(checked.move.frame, (p.x, p.y, p.z))
        t0 = stamp_seconds(state.header.stamp)
        start_wrench = self._wrench_sent.get(checked.controller, np.zeros(6))
        end = checked.move.duration + checked.hold
        guarded = checked.stop_force > 0.0
        period = 1.0 / self.cfg.command_rate
        next_feedback = 0.0
        while True:
            self._check_interrupt(handle, slot)
            state, force = self._fresh()
            elapsed = stamp_seconds(state.header.stamp) - t0
            wrench = checked.move.wrench_at(elapsed, start_wrench)
            self._publish(checked, checked.move.position_at(elapsed, start), wrench)
            tip, normal, in_plane, full = self._measure(checked, state, force)
            result.normal_force, result.in_plane_error, result.position_error = normal, in_plane, full
            if time.monotonic() >= next_feedback:   # feedback is for people and trees: 10 Hz
                next_feedback = time.monotonic() + 1.0 / self.cfg.feedback_rate
                phase = "guarded" if guarded else ("moving" if elapsed < checked.move.duration else "holding")
                handle.publish_feedback(Feedback(normal_force=normal, in_plane_error=in_plane,
                                                 position_error=full, phase=phase))
            if guarded and normal >= checked.stop_force:
                self._publish(checked, tip, wrench)
                return "SUCCESS", (f"contact: {normal:.2f} N along the {checked.frame_name} normal "
                                   f"after {elapsed:.2f} s")
            if elapsed >= end:
                if guarded:
                    self._publish(checked, tip, wrench)
                    return "NO_CONTACT", (f"no {checked.stop_force:g} N contact within "
                                          f"{checked.move.duration:g} s (force {normal:.2f} N)")
                return "SUCCESS", (f"{checked.controller}: {normal:.2f} N, in-plane error "
                                   f"{in_plane * 1000:.2f} mm in {checked.frame_name}")
            if elapsed > checked.timeout:
                raise GoalFailure("TIMEOUT", f"not done after {checked.timeout:g} s")
            await sleep(self, period)
