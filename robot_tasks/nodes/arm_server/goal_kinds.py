"""What differs between MoveToPose and MoveToJoints: validation, planning, progress, result.

The execution loop (execution.py) is shared; it asks a goal kind to
- `validate(goal)`            -> request (raises MotionFailure),
- `plan(q_now, request)`      -> TimedTrajectory (runs in a worker thread),
- `progress(q, request)`      -> Progress (is the measured state within tolerance?),
- `feedback(progress, phase)` and `result(code, message, progress)` -> messages.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from robot_tasks.control.motion_errors import ErrorCode
from robot_tasks.control.motion_pipeline import MotionPlanner
from robot_tasks.control.motion_request import (
    FrameMap,
    Motion,
    MotionDefaults,
    joint_request,
    pose_distance,
    pose_request,
)
from robot_tasks.nodes.arm_server.conversions import goal_pose_parts, pose_stamped
from robot_tasks.ros.error_codes import constant_name, result_code
from robot_tasks_interfaces.action import MoveToJoints, MoveToPose


@dataclass
class Progress:
    """The measured state judged against the goal."""

    within_tolerance: bool
    position_error: float = 0.0     # m (pose goals) or max joint error (joint goals)
    orientation_error: float = 0.0  # rad (pose goals)
    q: np.ndarray | None = None
    pose: object = None             # measured tool Pose in the base frame (pose goals)


class PoseGoalKind:
    """`measure_kin` is a second ArmKinematics of the same arm: Pinocchio's Data is not
    thread-safe, and the planner's copy is busy in the worker thread while the executor
    thread judges measured states."""

    action_type = MoveToPose

    def __init__(self, planner: MotionPlanner, measure_kin, frames: FrameMap,
                 defaults: MotionDefaults):
        self.planner, self.frames, self.defaults = planner, frames, defaults
        self.measure_kin = measure_kin

    def validate(self, goal):
        frame, position, quaternion = goal_pose_parts(goal.target)
        motion = constant_name(MoveToPose.Goal, goal.motion, [m.value for m in Motion])
        return pose_request(frame, position, quaternion, Motion(motion) if motion else goal.motion,
                            self.frames, self.defaults,
                            goal.position_tolerance, goal.orientation_tolerance,
                            goal.velocity_scaling, goal.timeout, goal.max_dq, goal.min_steps)

    def plan(self, q_now, request):
        return self.planner.plan_pose(q_now, request)

    def goal_q(self, trajectory):
        return np.asarray(trajectory.positions[-1])

    def progress(self, q, request) -> Progress:
        pose = self.measure_kin.fk(q)
        dp, angle = pose_distance(pose, request.target_in_base)
        ok = dp <= request.position_tolerance and angle <= request.orientation_tolerance
        return Progress(ok, dp, angle, q, pose)

    def feedback(self, progress: Progress, request, phase: str):
        fb = MoveToPose.Feedback(phase=phase)
        if progress is not None:
            fb.distance_remaining = progress.position_error
            fb.angle_remaining = progress.orientation_error
            fb.current_pose = pose_stamped(self.frames.from_base(progress.pose, request.frame_id),
                                           request.frame_id)
        return fb

    def result(self, code: ErrorCode, message: str, progress, request):
        res = MoveToPose.Result(error_code=result_code(MoveToPose.Result, code), message=message)
        if progress is not None and progress.pose is not None:
            frame = request.frame_id if request is not None else self.frames.base_frame
            res.final_pose = pose_stamped(self.frames.from_base(progress.pose, frame), frame)
            res.position_error = progress.position_error
            res.orientation_error = progress.orientation_error
        return res


class JointGoalKind:
    action_type = MoveToJoints

    def __init__(self, planner: MotionPlanner, defaults: MotionDefaults):
        self.planner, self.defaults = planner, defaults

    def validate(self, goal):
        kin = self.planner.kin
        return joint_request(goal.joint_names, goal.positions, kin.joint_names, kin.lower,
                             kin.upper, self.defaults, goal.tolerance, goal.velocity_scaling,
                             goal.timeout)

    def plan(self, q_now, request):
        return self.planner.plan_joints(q_now, request)

    def goal_q(self, trajectory):
        return np.asarray(trajectory.positions[-1])

    def progress(self, q, request) -> Progress:
        err = float(np.max(np.abs(np.asarray(q) - request.positions)))
        return Progress(err <= request.tolerance, err, 0.0, q)

    def _in_goal_order(self, q, request):
        by_name = dict(zip(self.planner.kin.joint_names, np.asarray(q).tolist()))
        names = list(request.goal_order) if request is not None else list(by_name)
        return names, [by_name[n] for n in names]

    def feedback(self, progress: Progress, request, phase: str):
        fb = MoveToJoints.Feedback(phase=phase)
        if progress is not None:
            fb.max_error_remaining = progress.position_error
            fb.positions = self._in_goal_order(progress.q, request)[1]
        return fb

    def result(self, code: ErrorCode, message: str, progress, request):
        res = MoveToJoints.Result(error_code=result_code(MoveToJoints.Result, code), message=message)
        if progress is not None and progress.q is not None:
            res.joint_names, res.positions = self._in_goal_order(progress.q, request)
            res.max_error = progress.position_error
        return res
