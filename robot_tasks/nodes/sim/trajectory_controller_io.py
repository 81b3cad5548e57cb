"""joint_trajectory_controller's ROS face for one simulated arm, as ros2_controllers serves it.

A real arm under ros2_control is moved by a joint_trajectory_controller (JTC). Its graph,
under the controller's name in the robot's namespace `<ns>`, is what this class serves:

  action <ns>/joint_trajectory_controller/follow_joint_trajectory   control_msgs/FollowJointTrajectory
  sub    <ns>/joint_trajectory_controller/joint_trajectory          trajectory_msgs/JointTrajectory
  sub    <ns>/joint_trajectory_controller/speed_scaling_input       control_msgs/SpeedScalingFactor
  pub    <ns>/joint_trajectory_controller/controller_state          control_msgs/JointTrajectoryControllerState

and its rules (ros2_controllers, kilted branch, `joint_trajectory_controller.cpp`):

* A goal is refused (REJECT, with the reason in the log, as JTC logs it) while the controller
  is inactive ("Can't accept new action goals. Controller is not running.") or when its
  trajectory is invalid: no points ("Empty trajectory received."), joints that are not the
  controller's, a last point that still moves, a start stamp whose trajectory ends in the
  past, times that do not increase, positions beyond the limits, NaN.
* A new goal preempts the running one, which is aborted with INVALID_GOAL ("Current goal
  preempted by new incoming action.").
* A cancel of the running goal holds the measured position at once and ends it CANCELED
  (its result: error_code 0 and no text, as JTC leaves it).
* Path and goal tolerances (the goal's, else the controller's defaults; 0 keeps the
  default, -1 erases it) end a goal ABORTED with PATH_TOLERANCE_VIOLATED or
  GOAL_TOLERANCE_VIOLATED, holding the measured position; within them it SUCCEEDS.
* A controller switch that deactivates JTC aborts the running goal with INVALID_GOAL
  ("Current goal cancelled during deactivate transition.").
* The topic takes whole trajectories with the same checks; an invalid one is logged and
  ignored (nothing changes), never read as "stop".
* `speed_scaling_input` sets the scaling factor (>= 0) that stretches execution time.

The controller_state goes out at the sim's joint_state_rate while somebody listens (JTC
publishes every control cycle; the sim spares DDS the 240 Hz stream nobody reads).

Threads: the action and topic callbacks run on the executor thread and hand the World
work to the stepping thread through `node.inbox`; `poll()` runs on the stepping thread
after each step and only writes a goal's outcome, which the goal's execute coroutine reads.
"""
from __future__ import annotations

import math

import numpy as np
from builtin_interfaces.msg import Duration
from rclpy.action import ActionServer, CancelResponse, GoalResponse
from rclpy.qos import DurabilityPolicy, QoSProfile, ReliabilityPolicy
from trajectory_msgs.msg import JointTrajectory as JointTrajectoryMsg
from trajectory_msgs.msg import JointTrajectoryPoint

from control_msgs.action import FollowJointTrajectory
from control_msgs.msg import JointTrajectoryControllerState
from robot_tasks.nodes.sim.convert import set_stamp, stamp_seconds, trajectory_from_msg
from robot_tasks.ros.async_tools import sleep
from robot_tasks.sim.controller import Outcome, Tolerances
from robot_tasks.sim.errors import CommandRejected

CONTROLLER = "joint_trajectory_controller"
ACTION = f"{CONTROLLER}/follow_joint_trajectory"
TOPIC = f"{CONTROLLER}/joint_trajectory"
SCALING_TOPIC = f"{CONTROLLER}/speed_scaling_input"
STATE_TOPIC = f"{CONTROLLER}/controller_state"
ERASE = -1.0                 # JointTolerance: "erase the default tolerance"
FEEDBACK_PERIOD = 0.05       # s of sim time between feedback messages (JTC's action_monitor_rate 20 Hz)
POLL_S = 0.005               # wall s between the execute coroutine's looks at its outcome
Result = FollowJointTrajectory.Result


class GoalRecord:
    """One accepted goal: written by the stepping thread, read by its execute coroutine."""

    __slots__ = ("handle", "goal", "trajectory_id", "outcome", "feedback", "feedback_sent")

    def __init__(self, handle):
        self.handle = handle
        self.goal = handle.request
        self.trajectory_id = None
        self.outcome = None      # (status "succeed" | "abort" | "canceled", error_code, error_string)
        self.feedback = None     # (sim s, desired q, desired v, actual q, actual v)
        self.feedback_sent = None


def resolve_tolerance(default: float, value: float) -> float:
    """A goal's tolerance over the controller's default, JTC's resolve_tolerance_source:
    > 0 replaces it, 0 keeps it, -1 erases it (0 = not checked); other negatives are illegal."""
    if value > 0.0:
        return float(value)
    if abs(value - ERASE) < 1.2e-7:
        return 0.0
    if value < 0.0 or not math.isfinite(value):
        raise ValueError(f"illegal tolerance {value}")
    return default


def goal_tolerances(defaults: Tolerances, goal, joint_names: list) -> Tolerances:
    """The tolerances of one goal; JTC falls back to the defaults (whole) on any illegal entry."""
    path, final = defaults.path.copy(), defaults.goal.copy()
    try:
        goal_time = resolve_tolerance(defaults.goal_time, stamp_seconds(goal.goal_time_tolerance))
        for entries, target in ((goal.path_tolerance, path), (goal.goal_tolerance, final)):
            for entry in entries:
                if entry.name not in joint_names:
                    raise ValueError(f"joint '{entry.name}' is not the controller's")
                j = joint_names.index(entry.name)
                target[j] = resolve_tolerance(target[j], entry.position)
    except ValueError:
        return defaults
    return Tolerances(path, final, defaults.stopped_velocity, goal_time)


class TrajectoryControllerIO:
    """The JTC interfaces of one RobotIO (see the module docstring)."""

    def __init__(self, node, robot_io):
        self.node, self.io = node, robot_io
        self._log = node.get_logger()
        self._goal: GoalRecord | None = None      # the running goal (stepping thread's)
        self._records: dict[bytes, GoalRecord] = {}
        self._feedback_due = 0.0
        topic = robot_io.topic
        self._state_pub = node.create_publisher(JointTrajectoryControllerState, topic(STATE_TOPIC), 10)
        self._state_msg = JointTrajectoryControllerState()
        node.create_subscription(JointTrajectoryMsg, topic(TOPIC),
                                 lambda msg: node.inbox.post(self._apply_topic, msg), 10)
        self._scaling_sub = self._subscribe_scaling(topic(SCALING_TOPIC))
        self.server = ActionServer(node, FollowJointTrajectory, topic(ACTION),
                                   execute_callback=self._execute, goal_callback=self._on_goal,
                                   handle_accepted_callback=self._on_accepted,
                                   cancel_callback=self._on_cancel)

    @property
    def controller(self):
        return self.io.robot.controller      # looked up each time: a reset builds a new one

    def _subscribe_scaling(self, name: str):
        from control_msgs.msg import SpeedScalingFactor  # kilted's type of JTC's scaling input
        latched = QoSProfile(depth=1, reliability=ReliabilityPolicy.RELIABLE,
                             durability=DurabilityPolicy.TRANSIENT_LOCAL)
        return self.node.create_subscription(
            SpeedScalingFactor, name, lambda msg: self.node.inbox.post(self._set_scaling, msg.factor), latched)

    # --- checks (stepping thread) --------------------------------------------------
    def _problem(self, msg: JointTrajectoryMsg) -> str:
        """Why JTC would refuse this trajectory ("" = it takes it)."""
        controller = self.controller
        if not controller.enabled:
            return "Can't accept new action goals. Controller is not running."
        if not msg.joint_names:
            return "Empty joint names on incoming trajectory."
        if msg.points and any(abs(v) > 1.2e-7 for v in msg.points[-1].velocities):
            return "Velocity of the last trajectory point is not zero."
        start = stamp_seconds(msg.header.stamp)
        if start != 0.0 and msg.points and \
                start + stamp_seconds(msg.points[-1].time_from_start) < self.node.ros_time():
            return f"Received trajectory with non-zero start time ({start:.3f}) that ends in the past"
        try:
            controller.validate(trajectory_from_msg(msg))
        except CommandRejected as err:
            return err.reason
        return ""

    def _start(self, msg: JointTrajectoryMsg, tolerances: Tolerances | None) -> int:
        """Command the trajectory (stepping thread); raises CommandRejected."""
        stamp = stamp_seconds(msg.header.stamp)
        start = None if stamp == 0.0 else self.node.world_time_of(stamp)
        return self.controller.command(trajectory_from_msg(msg), start_time=start, tolerances=tolerances)

    def _apply_topic(self, msg: JointTrajectoryMsg) -> None:
        if not self.controller.enabled:       # JTC keeps its subscriber and ignores what comes
            self._log.warning(f"{self.io.name}: {TOPIC}: controller inactive: trajectory ignored")
            return
        problem = self._problem(msg)
        if problem:
            self._log.error(f"{self.io.name}: {TOPIC}: {problem} (trajectory ignored)")
            return
        traj_id = self._start(msg, None)
        if self._goal is not None:
            self._goal.trajectory_id = traj_id     # JTC judges the running goal on what now runs
        self._log.info(f"{self.io.name}: trajectory {traj_id} from the topic ({len(msg.points)} points)")

    def _set_scaling(self, factor: float) -> None:
        if not math.isfinite(factor) or factor < 0.0:
            self._log.warning(f"{self.io.name}: speed scaling factor {factor} ignored: it must be >= 0")
            return
        self.controller.speed_scaling = float(factor)

    # --- action callbacks (executor thread) ----------------------------------------
    def _on_goal(self, goal) -> GoalResponse:
        try:
            problem = self.node.inbox.call(self._problem, goal.trajectory)
        except Exception as err:  # noqa: BLE001 - the sim is stopping: refuse, say why
            problem = f"the simulation cannot take goals now ({err})"
        if problem:
            self._log.error(f"{self.io.name}: {ACTION}: goal refused: {problem}")
            return GoalResponse.REJECT
        return GoalResponse.ACCEPT

    def _on_accepted(self, handle) -> None:
        record = GoalRecord(handle)
        self._records[bytes(handle.goal_id.uuid)] = record
        self.node.inbox.post(self._begin, record)
        handle.execute()

    def _on_cancel(self, handle) -> CancelResponse:
        record = self._records.get(bytes(handle.goal_id.uuid))
        if record is not None:
            self.node.inbox.post(self._cancel, record)
        return CancelResponse.ACCEPT

    async def _execute(self, handle):
        record = self._records[bytes(handle.goal_id.uuid)]
        try:
            while record.outcome is None:
                self._send_feedback(record)
                await sleep(self.node, POLL_S)
            status, code, text = record.outcome
            getattr(handle, status)()
            return Result(error_code=code, error_string=text)
        finally:
            self._records.pop(bytes(handle.goal_id.uuid), None)

    def _send_feedback(self, record: GoalRecord) -> None:
        snapshot = record.feedback
        if snapshot is None or snapshot is record.feedback_sent:
            return
        record.feedback_sent = snapshot
        seconds, desired_q, desired_v, actual_q, actual_v = snapshot
        feedback = FollowJointTrajectory.Feedback()
        set_stamp(feedback.header.stamp, seconds)
        feedback.joint_names = list(self.controller.joint_names)
        feedback.desired = _point(desired_q, desired_v)
        feedback.actual = _point(actual_q, actual_v)
        feedback.error = _point(desired_q - actual_q, desired_v - actual_v)
        record.handle.publish_feedback(feedback)

    # --- goal life (stepping thread) -------------------------------------------------
    def _begin(self, record: GoalRecord) -> None:
        if record.outcome is not None:            # cancelled before it started
            return
        if self._goal is not None:
            self._end(self._goal, "abort", Result.INVALID_GOAL, "Current goal preempted by new incoming action.")
        controller = self.controller
        tolerances = goal_tolerances(controller.default_tolerances, record.goal, controller.joint_names)
        try:
            record.trajectory_id = self._start(record.goal.trajectory, tolerances)
        except CommandRejected as err:            # the state changed since the goal was accepted
            record.outcome = ("abort", Result.INVALID_GOAL, err.reason)
            return
        self._goal = record
        self._feedback_due = 0.0

    def _cancel(self, record: GoalRecord) -> None:
        if record.outcome is not None:
            return
        if record is self._goal:
            self.controller.stop()                # hold the measured position now
            self._goal = None
        record.outcome = ("canceled", Result.SUCCESSFUL, "")

    def _end(self, record: GoalRecord, status: str, code: int, text: str) -> None:
        record.outcome = (status, code, text)
        if record is self._goal:
            self._goal = None

    def poll(self, seconds: float) -> None:
        """After each step: end the running goal if its trajectory ended; sample feedback."""
        record = self._goal
        if record is None:
            return
        controller = self.controller
        outcome = controller.outcome
        if outcome is Outcome.EXECUTING and controller.enabled:
            if seconds >= self._feedback_due:
                self._feedback_due = seconds + FEEDBACK_PERIOD
                q, v = self.io.robot_arm_state()
                desired_q, desired_v = controller.desired_state()
                record.feedback = (seconds, desired_q, desired_v, q, v)
            return
        if outcome is Outcome.SUCCESSFUL:
            self._end(record, "succeed", Result.SUCCESSFUL, "Goal successfully reached!")
        elif outcome is Outcome.PATH_TOLERANCE_VIOLATED:
            self._end(record, "abort", Result.PATH_TOLERANCE_VIOLATED,
                      f"Aborted due to path tolerance violation ({controller.error_message})")
        elif outcome is Outcome.GOAL_TOLERANCE_VIOLATED:
            self._end(record, "abort", Result.GOAL_TOLERANCE_VIOLATED, controller.error_message)
        else:                                     # stopped by a switch to another controller
            self._end(record, "abort", Result.INVALID_GOAL, "Current goal cancelled during deactivate transition.")

    def abort_running(self, why: str) -> None:
        """A scene reset: the running goal's arm is gone (stepping thread)."""
        if self._goal is not None:
            self._end(self._goal, "abort", Result.INVALID_GOAL, why)

    # --- state out (stepping thread) -----------------------------------------------
    def publish_state(self, seconds: float, q, v) -> None:
        """controller_state for whoever listens: reference, feedback and error now."""
        if self._state_pub.get_subscription_count() == 0:
            return
        controller = self.controller
        desired_q, desired_v = controller.desired_state()
        msg = self._state_msg
        set_stamp(msg.header.stamp, seconds)
        msg.joint_names = list(controller.joint_names)
        msg.reference = _point(desired_q, desired_v)
        msg.feedback = _point(q, v)
        msg.error = _point(desired_q - q, desired_v - v)
        msg.speed_scaling_factor = float(controller.speed_scaling)
        self._state_pub.publish(msg)


def _point(positions, velocities) -> JointTrajectoryPoint:
    return JointTrajectoryPoint(positions=np.asarray(positions, float).tolist(),
                                velocities=np.asarray(velocities, float).tolist(),
                                time_from_start=Duration())
