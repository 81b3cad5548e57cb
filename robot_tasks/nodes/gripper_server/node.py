"""GripperServer: the GripperCommand action for a parallel gripper or a suction cup.

Topic contract (names relative to the node's namespace, all remappable):
  parallel: out gripper_controller/commands (std_msgs/Float64MultiArray [width, max_effort],
            or [width, max_effort, 1] for FORCE_HOLD: force control once an object stops the fingers)
            in  joint_states (finger joints; width = sum of the finger joint positions;
                subscribed, like /clock, only while goals run: ros/lazy_subscriptions.py)
  suction:  out suction/command (std_msgs/Bool)
            in  suction/attached (std_msgs/Bool, transient_local, sent on change)
  action:   gripper_command (robot_tasks_interfaces/GripperCommand)

A goal for the other kind of gripper ends MODE_NOT_SUPPORTED. A new goal preempts the
running one (PREEMPTED). Cancel holds the fingers at their measured width, unless they
are squeezing an object (then the squeeze command stays, so nothing is dropped).
"""
from __future__ import annotations

import time
import traceback

from rclpy.action import ActionServer, CancelResponse, GoalResponse
from rclpy.node import Node
from rclpy.qos import qos_profile_sensor_data
from sensor_msgs.msg import JointState
from std_msgs.msg import Bool, Float64MultiArray

from robot_tasks.control.motion_errors import ErrorCode, MotionFailure
from robot_tasks.ros.error_codes import constant_name, result_code
from robot_tasks.ros.goal_outcome import end_goal
from robot_tasks.ros.async_tools import sleep
from robot_tasks.ros.joint_state_cache import JointStateCache, PollGaps
from robot_tasks.ros.lazy_subscriptions import ServerStreams
from robot_tasks.ros.parameters import ParameterError, declare
from robot_tasks.ros.controller_topics import GRIPPER_FORCE_HOLD
from robot_tasks.ros.qos import LATCHED
from robot_tasks.ros.response_grace import ResponseGrace
from robot_tasks.control.robot_defaults import robot_defaults
from robot_tasks.control.gripper_logic import (MODES, GripperSettings, ParallelCommand, StallDetector,
                                           check_goal, judge_parallel)
from robot_tasks_interfaces.action import GripperCommand

POLL_S = 0.01
Goal, Result = GripperCommand.Goal, GripperCommand.Result


class GripperServer(Node):
    def __init__(self, node_name: str = "gripper_server", **kwargs):
        super().__init__(node_name, **kwargs)

        def param(name, default, text="", **rule):
            return declare(self, name, default, text, **rule)

        def positive(name, default, unit):
            return param(name, default, unit, minimum=0.0, open_minimum=True)

        d = robot_defaults(param("robot", "panda", "picks the defaults", choices=("panda", "ur10")))
        kind = param("gripper_type", d["gripper_type"], "the tool", choices=("parallel", "suction"))
        self.settings = GripperSettings(
            gripper_type=kind,
            max_width=positive("max_width", d["max_width"] or 0.08, "m"),
            default_effort=positive("default_effort", 20.0, "N"),
            max_effort=positive("max_effort", 140.0, "N"),
            width_tolerance=positive("width_tolerance", 0.002, "m"),
            stall_margin=param("stall_margin", 0.002, "m", minimum=0.0),
            stall_distance=positive("stall_distance", 0.0005, "m"),
            stall_window=positive("stall_window", 0.2, "s"),
            default_timeout=positive("default_timeout", 5.0, "s"),
            suction_settle_time=param("suction_settle_time", 0.5, "s", minimum=0.0))
        self.finger_joints = [j for j in param("finger_joints", d["finger_joints"] or [""],
                                               "finger joints; width = sum of their positions") if j]
        if kind == "parallel" and not self.finger_joints:
            raise ParameterError("finger_joints", "is empty for a parallel gripper", node=self.get_name())
        self.startup_wait = positive("startup_wait", 5.0, "wall s to wait for state")
        self.state_timeout = positive("joint_state_timeout", 1.0, "wall s")
        self.response_wall_grace = positive(
            "response_wall_grace", 0.3,
            "wall s after a command before fingers that have not moved count as stalled, or a "
            "cup with nothing attached as empty (faster than real time, sim seconds pass while "
            "the command and the state that answers it are in transit)")
        self.joint_cache = JointStateCache()
        self.attached = None            # last suction/attached value (None: never heard)
        self._active = None
        if kind == "parallel":
            self.command_pub = self.create_publisher(
                Float64MultiArray, param("command_topic", "gripper_controller/commands"), 10)
            subscribe = lambda: [self.create_subscription(JointState, "joint_states",  # noqa: E731
                                                          self.joint_cache.update, qos_profile_sensor_data)]
        else:
            subscribe = lambda: []  # noqa: E731 - the attached signal is latched and rare: always heard
            self.command_pub = self.create_publisher(
                Bool, param("suction_command_topic", "suction/command"), 10)
            self.create_subscription(Bool, param("suction_state_topic", "suction/attached"),
                                     self._on_attached, LATCHED)
        # joint_states and /clock only while a goal runs (robot_tasks/ros/lazy_subscriptions.py)
        self.streams = ServerStreams(self, subscribe, needed=lambda: self._active is not None)
        self.last_command = None
        ActionServer(self, GripperCommand, "gripper_command", execute_callback=self._execute,
                     goal_callback=lambda _g: GoalResponse.ACCEPT,
                     handle_accepted_callback=self._accepted,
                     cancel_callback=self._on_cancel)
        self.get_logger().info(f"gripper_server: {kind} gripper, commands on "
                               f"'{self.command_pub.topic_name}'")

    # ------------------------------------------------------------ state & commands
    def _on_attached(self, msg: Bool) -> None:
        self.attached = bool(msg.data)

    def width(self, max_age: float) -> float:
        return float(sum(self.joint_cache.positions(self.finger_joints, max_age)))

    def command_width(self, width: float, effort: float, force_hold: bool = False) -> None:
        self.last_command = (width, effort)
        data = [float(width), float(effort)] + ([GRIPPER_FORCE_HOLD] if force_hold else [])
        self.command_pub.publish(Float64MultiArray(data=data))

    # ------------------------------------------------------------ goal handling
    def _accepted(self, handle) -> None:
        if self._active is not None:
            self._active["preempted"] = True
        self._active = {"handle": handle, "preempted": False, "squeezing": False}
        handle.execute()

    def _on_cancel(self, handle) -> CancelResponse:
        slot = self._active
        if slot is not None and slot["handle"] is handle and self.settings.gripper_type == \
                "parallel" and not slot["squeezing"] and self.last_command is not None:
            try:
                self.command_width(self.width(float("inf")), self.last_command[1])
            except MotionFailure:
                pass
        return CancelResponse.ACCEPT

    async def _execute(self, handle):
        slot = self._active if self._active and self._active["handle"] is handle else \
            {"handle": handle, "preempted": True, "squeezing": False}
        result = Result()
        try:
            goal = handle.request
            mode = constant_name(Goal, goal.mode, MODES)
            command = check_goal(mode if mode else goal.mode, goal.width, goal.max_effort, goal.suction_on,
                                 goal.timeout, self.settings)
            self.streams.hold()
            # after an idle spell the node clock holds its last value until /clock is back
            await self._wait_state(handle, slot, self.streams.clock_fresh,
                                   f"no fresh /clock within {self.startup_wait:g} s (use_sim_time is set)")
            if isinstance(command, ParallelCommand):
                await self._run_parallel(handle, slot, command, result)
            else:
                await self._run_suction(handle, slot, command, result)
            code, name, message = ErrorCode.SUCCESS, "SUCCESS", result.message
        except MotionFailure as failure:
            code, name, message = failure.code, failure.name, failure.message
        except Exception as exc:  # a bug: report it, keep serving
            self.get_logger().error(f"gripper goal crashed:\n{traceback.format_exc()}")
            code, name = ErrorCode.INTERNAL_ERROR, "INTERNAL_ERROR"
            message = f"{type(exc).__name__}: {exc}"
        finally:
            if self._active is slot:
                self._active = None
        result.error_code, result.message = result_code(Result, code), message
        end_goal(handle, code, self.get_logger(), f"gripper: {name}: {message}")
        return result

    def _check_interrupt(self, handle, slot) -> None:
        if handle.is_cancel_requested:
            raise MotionFailure(ErrorCode.CANCELLED, "cancelled")
        if slot["preempted"]:
            raise MotionFailure(ErrorCode.PREEMPTED, "preempted by a newer goal")

    def _now(self) -> float:
        return self.get_clock().now().nanoseconds * 1e-9

    async def _wait_state(self, handle, slot, ready, what: str):
        deadline = time.monotonic() + self.startup_wait
        while not ready():
            self._check_interrupt(handle, slot)
            if time.monotonic() > deadline:
                raise MotionFailure(ErrorCode.NO_JOINT_STATES, what)
            await sleep(self, POLL_S)

    async def _run_parallel(self, handle, slot, cmd: ParallelCommand, result) -> None:
        def fresh():
            try:
                self.width(self.state_timeout)
                return True
            except MotionFailure:
                return False

        await self._wait_state(handle, slot, fresh,
                               f"no fresh joint_states for {self.finger_joints} within "
                               f"{self.startup_wait:g} s")
        start_width = self.width(self.state_timeout)
        closing = cmd.width < start_width
        self.command_width(cmd.width, cmd.effort, cmd.force_hold)
        t0, grace = self._now(), ResponseGrace(self.response_wall_grace)
        stall = StallDetector(self.settings.stall_window, self.settings.stall_distance)
        polls = PollGaps()
        while True:
            self._check_interrupt(handle, slot)
            width = self.width(polls.max_age(self.state_timeout))
            now = self._now()
            stall.add(now, width)
            # "not moving" says something only once the command has arrived: the fingers
            # moved, or the grace is over (robot_tasks/ros/response_grace.py)
            answered = abs(width - start_width) > self.settings.stall_distance or grace.over()
            verdict = judge_parallel(width, cmd.width, answered and stall.stalled(), self.settings, closing)
            handle.publish_feedback(GripperCommand.Feedback(width=width, effort=self._effort()))
            result.width = width
            if verdict.done:
                slot["squeezing"] = verdict.object_detected
                result.reached_goal, result.object_detected = (verdict.reached_goal,
                                                               verdict.object_detected)
                result.message = (f"holding an object at {width * 1000:.1f} mm" if
                                  verdict.object_detected else
                                  f"width {width * 1000:.1f} mm (target "
                                  f"{cmd.width * 1000:.1f} mm)")
                return
            if now - t0 > cmd.timeout and answered:
                raise MotionFailure(ErrorCode.TIMEOUT, f"fingers still moving after "
                                    f"{cmd.timeout:g} s (width {width * 1000:.1f} mm)")
            await sleep(self, POLL_S)

    def _effort(self) -> float:
        try:
            efforts = self.joint_cache.efforts(self.finger_joints)
        except MotionFailure:
            return 0.0
        return float(sum(abs(e) for e in efforts) / len(efforts))

    async def _run_suction(self, handle, slot, cmd, result) -> None:
        await self._wait_state(handle, slot, lambda: self.attached is not None,
                               f"no suction state on '{self.resolve_topic_name('suction/attached')}'"
                               f" within {self.startup_wait:g} s")
        self.command_pub.publish(Bool(data=cmd.on))
        t0, grace = self._now(), ResponseGrace(self.response_wall_grace)
        while True:
            self._check_interrupt(handle, slot)
            elapsed = self._now() - t0
            answered = grace.over()
            handle.publish_feedback(GripperCommand.Feedback())
            if cmd.on and (self.attached or (answered and elapsed >= self.settings.suction_settle_time)):
                result.reached_goal, result.object_detected = True, bool(self.attached)
                result.message = "vacuum on, object attached" if self.attached else \
                    "vacuum on, nothing attached"
                return
            if not cmd.on and not self.attached:
                result.reached_goal, result.object_detected = True, False
                result.message = "vacuum off, released"
                return
            if elapsed > cmd.timeout and answered:
                raise MotionFailure(ErrorCode.TIMEOUT, "suction still reports an attached "
                                    f"object {cmd.timeout:g} s after vacuum off")
            await sleep(self, POLL_S)
