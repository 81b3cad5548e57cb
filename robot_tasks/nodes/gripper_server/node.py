"""GripperServer: the GripperCommand action, served as a client of the gripper's real driver.

The tree's interface stays robot_tasks_interfaces/GripperCommand (PARALLEL, FORCE_HOLD,
SUCTION) on `gripper_command`. Behind it (parameter `backend`, parameters.py):

  franka          goals as franka_gripper's `move` / `grasp` actions (franka_msgs)
  gripper_action  goals as a control_msgs/GripperCommand action
  set_io          a UR's `set_io` (ur_msgs/SetIO) switches the vacuum output;
                  its `io_states` (ur_msgs/IOStates) input says whether something is attached
  parallel backends read the width on joint_states (finger joints; subscribed, like
  /clock, only while goals run: ros/lazy_subscriptions.py)

A goal's end is the driver's answer: a driver that does not answer -- no action server or
service within `startup_wait` (and the goal's timeout), a refused goal, no end within the
goal's timeout, no io_states -- is CONTROLLER_FAILED / TIMEOUT / NO_JOINT_STATES, never a
grasp. A goal for the other kind of gripper ends MODE_NOT_SUPPORTED. A new goal preempts
the running one (PREEMPTED; the driver's newer command replaces the older). A cancel
cancels the driver's goal (franka_gripper answers with stop(); a gripper action controller
holds its position) and ends CANCELLED.
"""
from __future__ import annotations

import time
import traceback

from rclpy.action import ActionServer, CancelResponse, GoalResponse
from rclpy.node import Node
from rclpy.qos import qos_profile_sensor_data
from sensor_msgs.msg import JointState

from robot_tasks.control.gripper_logic import MODES, ParallelCommand, check_goal
from robot_tasks.control.motion_errors import ErrorCode, MotionFailure
from robot_tasks.nodes.gripper_server.io_driver import IoDriver
from robot_tasks.nodes.gripper_server.parallel_drivers import DRIVERS
from robot_tasks.nodes.gripper_server.parameters import declare_params
from robot_tasks.ros.async_tools import sleep
from robot_tasks.ros.error_codes import constant_name, result_code
from robot_tasks.ros.goal_outcome import end_goal
from robot_tasks.ros.joint_state_cache import JointStateCache, PollGaps
from robot_tasks.ros.lazy_subscriptions import ServerStreams
from robot_tasks.ros.response_grace import ResponseGrace
from robot_tasks_interfaces.action import GripperCommand

POLL_S = 0.01
Goal, Result = GripperCommand.Goal, GripperCommand.Result


class GripperServer(Node):
    def __init__(self, node_name: str = "gripper_server", **kwargs):
        super().__init__(node_name, **kwargs)
        self.params = params = declare_params(self)
        self.settings = params.settings
        self.joint_cache = JointStateCache()
        self._active = None
        if params.backend == "set_io":
            self.driver = IoDriver(self, params)
            subscribe = self.driver.subscribe
        else:
            self.driver = DRIVERS[params.backend](self, params)
            subscribe = lambda: [self.create_subscription(JointState, "joint_states",  # noqa: E731
                                                          self.joint_cache.update, qos_profile_sensor_data)]
        # the streams (joint_states or io_states, and /clock) only while a goal runs
        self.streams = ServerStreams(self, subscribe, needed=lambda: self._active is not None)
        ActionServer(self, GripperCommand, "gripper_command", execute_callback=self._execute,
                     goal_callback=lambda _g: GoalResponse.ACCEPT,
                     handle_accepted_callback=self._accepted,
                     cancel_callback=lambda _h: CancelResponse.ACCEPT)
        target = self.driver.service_name if params.backend == "set_io" else self.driver.label
        self.get_logger().info(f"gripper_server: {params.settings.gripper_type} gripper, backend "
                               f"{params.backend} ({target})")

    # ------------------------------------------------------------ goal handling
    def _accepted(self, handle) -> None:
        if self._active is not None:
            self._active["preempted"] = True
        self._active = {"handle": handle, "preempted": False}
        handle.execute()

    async def _execute(self, handle):
        slot = self._active if self._active and self._active["handle"] is handle else \
            {"handle": handle, "preempted": True}
        result = Result()
        try:
            goal = handle.request
            mode = constant_name(Goal, goal.mode, MODES)
            command = check_goal(mode if mode else goal.mode, goal.width, goal.max_effort, goal.suction_on,
                                 goal.timeout, self.settings)
            self.streams.hold()
            # every wait before the driver answers shares one deadline: startup_wait, and at
            # most the goal's own timeout (a goal never waits longer than that for anything)
            slot["patience"] = min(self.params.startup_wait, command.timeout)
            slot["deadline"] = time.monotonic() + slot["patience"]
            # after an idle spell the node clock holds its last value until /clock is back
            await self._wait(handle, slot, self.streams.clock_fresh, ErrorCode.NO_JOINT_STATES,
                             f"no fresh /clock within {slot['patience']:g} s (use_sim_time is set)")
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

    def _check_interrupt(self, handle, slot, driver_goal=None) -> None:
        if handle.is_cancel_requested:
            if driver_goal is not None:
                driver_goal.cancel()
            raise MotionFailure(ErrorCode.CANCELLED, "cancelled")
        if slot["preempted"]:    # the newer goal's command replaces this one in the driver
            raise MotionFailure(ErrorCode.PREEMPTED, "preempted by a newer goal")

    def _now(self) -> float:
        return self.get_clock().now().nanoseconds * 1e-9

    async def _wait(self, handle, slot, ready, code, what: str):
        """Poll `ready()` until the goal's start-up deadline (wall s); else MotionFailure(code, what)."""
        while not ready():
            self._check_interrupt(handle, slot)
            if time.monotonic() > slot["deadline"]:
                raise MotionFailure(code, what)
            await sleep(self, POLL_S)

    async def _wait_driver(self, handle, slot) -> None:
        await self._wait(handle, slot, self.driver.ready, ErrorCode.CONTROLLER_FAILED,
                         f"{self.driver.missing()} within {slot['patience']:g} s")

    # ------------------------------------------------------------ parallel grippers
    def width(self, max_age: float) -> float:
        return float(sum(self.joint_cache.positions(self.params.finger_joints, max_age)))

    async def _run_parallel(self, handle, slot, cmd: ParallelCommand, result) -> None:
        def fresh():
            try:
                self.width(self.params.state_timeout)
                return True
            except MotionFailure:
                return False

        await self._wait(handle, slot, fresh, ErrorCode.NO_JOINT_STATES,
                         f"no fresh joint_states for {self.params.finger_joints} within "
                         f"{slot['patience']:g} s")
        await self._wait_driver(handle, slot)
        call = self.driver.call(cmd, self.width(self.params.state_timeout))
        driver_goal = self.driver.send(call)
        t0, grace, polls = self._now(), ResponseGrace(self.params.response_wall_grace), PollGaps()
        while True:
            self._check_interrupt(handle, slot, driver_goal)
            width = self.width(polls.max_age(self.params.state_timeout))
            handle.publish_feedback(GripperCommand.Feedback(width=width, effort=self._effort()))
            if driver_goal.refused:
                raise MotionFailure(ErrorCode.CONTROLLER_FAILED, f"{self.driver.label} refused the "
                                    f"{call.kind} goal")
            outcome = driver_goal.outcome()
            if outcome is not None:
                verdict, result.message = self.driver.judge(call, outcome, width)
                result.width = width
                result.reached_goal, result.object_detected = verdict.reached_goal, verdict.object_detected
                return
            if self._now() - t0 > cmd.timeout and grace.over():
                driver_goal.cancel()
                raise MotionFailure(ErrorCode.TIMEOUT, f"{self.driver.label}: {call.kind} not done after "
                                    f"{cmd.timeout:g} s (width {width * 1000:.1f} mm); cancelled it")
            await sleep(self, POLL_S)

    def _effort(self) -> float:
        try:
            efforts = self.joint_cache.efforts(self.params.finger_joints)
        except MotionFailure:
            return 0.0
        return float(sum(abs(e) for e in efforts) / len(efforts))

    # ------------------------------------------------------------ suction
    async def _run_suction(self, handle, slot, cmd, result) -> None:
        io = self.driver
        await self._wait(handle, slot, io.fresh, ErrorCode.NO_JOINT_STATES,
                         f"no io_states on '{io.topic_name}' within {slot['patience']:g} s "
                         f"(is the UR driver's io_and_status_controller running?)")
        if io.vacuum() is None:
            raise MotionFailure(ErrorCode.CONTROLLER_FAILED, f"io_states on '{io.topic_name}' has no digital "
                                f"input {self.params.vacuum_sensor_pin} (vacuum_sensor_pin)")
        await self._wait_driver(handle, slot)
        answer = io.set_vacuum(cmd.on)
        await self._wait(handle, slot, answer.done, ErrorCode.CONTROLLER_FAILED,
                         f"{io.service_name} did not answer within {slot['patience']:g} s")
        if not answer.result().success:
            raise MotionFailure(ErrorCode.CONTROLLER_FAILED, f"{io.service_name} refused to switch output "
                                f"{self.params.vacuum_output_pin} {'on' if cmd.on else 'off'} "
                                f"(success=false: is the IO controller active?)")
        t0, grace = self._now(), ResponseGrace(self.params.response_wall_grace)
        while True:
            self._check_interrupt(handle, slot)
            if not io.fresh():
                raise MotionFailure(ErrorCode.NO_JOINT_STATES, f"io_states on '{io.topic_name}' stopped "
                                    f"(none for {self.params.state_timeout:g} s)")
            attached, elapsed, answered = bool(io.vacuum()), self._now() - t0, grace.over()
            handle.publish_feedback(GripperCommand.Feedback())
            if cmd.on and (attached or (answered and elapsed >= self.settings.suction_settle_time)):
                result.reached_goal, result.object_detected = True, attached
                result.message = "vacuum on, object attached" if attached else "vacuum on, nothing attached"
                return
            if not cmd.on and not attached:
                result.reached_goal, result.object_detected = True, False
                result.message = "vacuum off, released"
                return
            if elapsed > cmd.timeout and answered:
                raise MotionFailure(ErrorCode.TIMEOUT, "the vacuum switch still reports an attached "
                                    f"object {cmd.timeout:g} s after vacuum off")
            await sleep(self, POLL_S)
