"""A stand-in for ros2_control's joint_trajectory_controller (JTC), with no physics.

Written from ros2_controllers' own documentation and source (kilted branch:
`joint_trajectory_controller/doc/userdoc.rst`, `src/joint_trajectory_controller.cpp`,
`include/joint_trajectory_controller/tolerances.hpp`), not from this project's servers or
sim, so that a server passing against it talks to a JTC, not to our idea of one:

- action `<controller>/follow_joint_trajectory` (control_msgs/FollowJointTrajectory):
  a goal is REJECTED while the controller is inactive, and when its trajectory has no
  joint names, other joints than the controller's (no partial goals, the default), no
  points, a last point with a non-zero velocity, a stamped start that ends in the past,
  or times that do not strictly increase. JTC does not check joint limits.
- a newer goal aborts the running one: INVALID_GOAL, "Current goal preempted by new
  incoming action."
- a cancel of the running goal holds the current position; the goal ends CANCELED with
  an empty result (error_code 0).
- `constraints`: per-joint `trajectory` (path) and `goal` position tolerances, 0 = not
  checked; `goal_time` 0 = wait for ever. A path violation aborts with
  PATH_TOLERANCE_VIOLATED, a goal not reached within goal_time with
  GOAL_TOLERANCE_VIOLATED; both hold the current position. Success: "Goal successfully
  reached!".
- topic `<controller>/joint_trajectory`: the same checks ("Empty trajectory received." is
  an error that changes nothing); a valid trajectory replaces the current one.
- positions are interpolated linearly between points (JTC's default is splines; the
  stand-in does not need them), starting from the current command.

The joints follow the reference at most `max_speed` rad/s (inf = perfectly), so a
trajectory faster than that drifts off its path, as a real arm would.
"""
from __future__ import annotations

import math

import numpy as np
from rclpy.action import ActionServer, CancelResponse, GoalResponse
from trajectory_msgs.msg import JointTrajectory

from control_msgs.action import FollowJointTrajectory

Result = FollowJointTrajectory.Result


def _seconds(duration) -> float:
    return duration.sec + duration.nanosec * 1e-9


class StandInJTC:
    """One controller over `joints`, driven by `update(now, dt)` from its node's timer."""

    def __init__(self, node, joints: list, q0, clock, controller: str = "joint_trajectory_controller",
                 active: bool = True, path_tolerance: float = 0.0, goal_tolerance: float = 0.0,
                 goal_time: float = 0.0, max_speed: float = math.inf):
        self.node, self.joints, self.clock = node, list(joints), clock
        self.q = np.array(q0, float)
        self.command = self.q.copy()
        self.active = active
        self.path_tol, self.goal_tol, self.goal_time = path_tolerance, goal_tolerance, goal_time
        self.max_speed = max_speed
        self.trajectory = None          # (start time, times, positions)
        self.goal = None                # the running goal handle
        self.outcomes: dict = {}        # goal id -> (status, code, text)
        self.topic_messages = []        # every message that came on the topic: (points, accepted)
        self.log = node.get_logger()
        ActionServer(node, FollowJointTrajectory, f"{controller}/follow_joint_trajectory",
                     execute_callback=self._execute, goal_callback=self._on_goal,
                     handle_accepted_callback=self._on_accepted, cancel_callback=self._on_cancel)
        node.create_subscription(JointTrajectory, f"{controller}/joint_trajectory", self._on_topic, 10)

    # --- validate_trajectory_msg ------------------------------------------------------
    def _invalid(self, msg) -> str:
        if len(msg.joint_names) != len(self.joints):
            return "Joints on incoming trajectory don't match the controller joints."
        if not msg.joint_names:
            return "Empty joint names on incoming trajectory."
        if not msg.points:
            return "Empty trajectory received."
        for name in msg.joint_names:
            if name not in self.joints:
                return f"Incoming joint {name} doesn't match the controller's joints."
        if any(abs(v) > 1.2e-7 for v in msg.points[-1].velocities):
            return "Velocity of last trajectory point is not zero"
        start = _seconds(msg.header.stamp)
        if start != 0.0 and start + _seconds(msg.points[-1].time_from_start) < self.clock():
            return "Received trajectory with non-zero start time that ends in the past"
        last = -1.0
        for point in msg.points:
            t = _seconds(point.time_from_start)
            if t <= last:
                return "Time between points is not strictly increasing"
            last = t
            if len(point.positions) != len(self.joints):
                return "Mismatch between joint_names size and positions"
        return ""

    def _replace(self, msg) -> None:
        order = [list(msg.joint_names).index(j) for j in self.joints]
        times = [_seconds(p.time_from_start) for p in msg.points]
        positions = [np.asarray(p.positions, float)[order] for p in msg.points]
        if times[0] > 0.0:
            times.insert(0, 0.0)
            positions.insert(0, self.command.copy())
        start = _seconds(msg.header.stamp) or self.clock()
        self.trajectory = (start, np.array(times), np.array(positions))

    def _hold(self) -> None:
        self.trajectory = None
        self.command = self.q.copy()

    # --- topic ------------------------------------------------------------------------
    def _on_topic(self, msg) -> None:
        problem = "" if self.active else "controller inactive"
        problem = problem or self._invalid(msg)
        self.topic_messages.append((len(msg.points), not problem))
        if problem:
            self.log.error(problem)
            return
        self._replace(msg)

    # --- action -----------------------------------------------------------------------
    def _on_goal(self, goal) -> GoalResponse:
        if not self.active:
            self.log.error("Can't accept new action goals. Controller is not running.")
            return GoalResponse.REJECT
        problem = self._invalid(goal.trajectory)
        if problem:
            self.log.error(problem)
            return GoalResponse.REJECT
        return GoalResponse.ACCEPT

    def _on_accepted(self, handle) -> None:
        if self.goal is not None:
            self._end(self.goal, "abort", Result.INVALID_GOAL, "Current goal preempted by new incoming action.")
        self._replace(handle.request.trajectory)
        self.goal = handle
        handle.execute()

    def _on_cancel(self, handle) -> CancelResponse:
        if self.goal is not None and bytes(self.goal.goal_id.uuid) == bytes(handle.goal_id.uuid):
            self._end(handle, "canceled", Result.SUCCESSFUL, "")
            self._hold()
        return CancelResponse.ACCEPT

    def _end(self, handle, status: str, code: int, text: str) -> None:
        self.outcomes[bytes(handle.goal_id.uuid)] = (status, code, text)
        if self.goal is handle:
            self.goal = None

    async def _execute(self, handle):
        from robot_tasks.ros.async_tools import sleep  # (a wall-clock await; no server logic)
        key = bytes(handle.goal_id.uuid)
        while key not in self.outcomes:
            await sleep(self.node, 0.005)
        status, code, text = self.outcomes.pop(key)
        getattr(handle, status)()
        return Result(error_code=code, error_string=text)

    # --- the control cycle --------------------------------------------------------------
    def update(self, now: float, dt: float) -> None:
        if self.trajectory is not None:
            start, times, positions = self.trajectory
            t = now - start
            if t >= 0.0:
                if t >= times[-1]:
                    self.command = positions[-1].copy()
                else:
                    k = int(np.searchsorted(times, t, side="right")) - 1
                    s = (t - times[k]) / (times[k + 1] - times[k])
                    self.command = positions[k] + s * (positions[k + 1] - positions[k])
                self._judge(t, times[-1])
        step = self.max_speed * dt
        self.q += np.clip(self.command - self.q, -step, step)

    def _judge(self, t: float, end: float) -> None:
        error = np.abs(self.command - self.q)
        if t < end:
            if self.path_tol > 0 and np.any(error > self.path_tol):
                if self.goal is not None:
                    self._end(self.goal, "abort", Result.PATH_TOLERANCE_VIOLATED,
                              "Aborted due to path tolerance violation")
                self._hold()
            return
        if self.goal_tol <= 0 or np.all(error <= self.goal_tol):
            if self.goal is not None:
                self._end(self.goal, "succeed", Result.SUCCESSFUL, "Goal successfully reached!")
            self.trajectory = None
        elif self.goal_time > 0 and t > end + self.goal_time:
            if self.goal is not None:
                self._end(self.goal, "abort", Result.GOAL_TOLERANCE_VIOLATED,
                          f"Aborted due to goal_time_tolerance exceeding by {t - end - self.goal_time:f} seconds")
            self._hold()
