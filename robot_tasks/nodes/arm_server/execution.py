"""The life of one arm goal, shared by MoveToPose and MoveToJoints.

    validate -> wait for state -> plan (worker thread) -> send ONE trajectory as a
    FollowJointTrajectory goal -> the controller's result -> our own tolerance check on
    the measured joints

Exits (codes from MotionFailure/ErrorCode): SUCCESS (the controller SUCCEEDED and the
measured pose is within this goal's tolerance); CANCELLED (the cancel callback already
cancelled the controller's goal); PREEMPTED (a newer goal owns the arm and sends its own
trajectory); CONTROLLER_FAILED (the controller refused the goal -- inactive, or a rule
of its broken -- or aborted it: its code, e.g. PATH_TOLERANCE_VIOLATED, is in the
message); TOLERANCE_NOT_MET (the controller's GOAL_TOLERANCE_VIOLATED, or its success
while the measured pose stays outside ours); TIMEOUT / NO_JOINT_STATES (the controller's
goal is cancelled: the arm holds where it is); INVALID_* / UNREACHABLE / PLANNING_FAILED
(nothing was sent). Any unexpected exception becomes INTERNAL_ERROR with the traceback in
the log: a goal never takes the server down.

Times: the goal timeout runs on the trajectory's clock -- the node clock (sim time with
use_sim_time, so the server works at any sim speed) slowed by the robot's speed scaling
(speed_scaling.py), so a UR at 20 % on its slider is not timed out; liveness checks
(joint_states age, waiting for the first messages) use wall time.
"""
from __future__ import annotations

import math
import time
import traceback
from dataclasses import dataclass, field

from robot_tasks.control.motion_errors import ErrorCode, MotionFailure
from robot_tasks.nodes.arm_server.speed_scaling import TrajectoryClock
from robot_tasks.ros.async_tools import sleep, wait_for_worker
from robot_tasks.ros.error_codes import result_code
from robot_tasks.ros.goal_outcome import end_goal
from robot_tasks.ros.joint_state_cache import PollGaps

POLL_S = 0.01   # wall seconds between checks of the measured state


@dataclass
class GoalSlot:
    """Book-keeping of one accepted goal."""

    handle: object
    kind_name: str
    preempted: bool = False
    trajectory_sent: bool = False
    inherited_motion: bool = False   # it preempted a goal whose trajectory may still run
    finished: bool = False
    started_wall: float = field(default_factory=time.monotonic)


def _clock_seconds(node) -> float:
    return node.get_clock().now().nanoseconds * 1e-9


class GoalExecution:
    """Runs one goal for `server` (an ArmServer): see the module docstring."""

    def __init__(self, server, slot: GoalSlot, action_type):
        self.server, self.slot, self.action_type = server, slot, action_type
        self.kind = None          # PoseGoalKind / JointGoalKind once the model exists
        self.handle = slot.handle
        self.request = None
        self.progress = None
        self.planning_s = None    # wall s the planner took (said in the result: where time goes)

    # ------------------------------------------------------------ outcomes
    def _finish(self, code: ErrorCode, message: str):
        """Set the goal's terminal state and build the result."""
        end_goal(self.handle, code, self.server.get_logger(),
                 f"{self.slot.kind_name}: {MotionFailure(code, message)}")
        if self.kind is None:  # failed before robot_description arrived
            return self.action_type.Result(error_code=result_code(self.action_type.Result, code),
                                           message=message)
        return self.kind.result(code, message, self.progress, self.request)

    def _interrupted(self):
        """CANCELLED / PREEMPTED outcome if the goal was interrupted, else None."""
        if self.handle.is_cancel_requested:
            return ErrorCode.CANCELLED, "cancelled; the arm holds its measured position"
        if self.slot.preempted:
            return ErrorCode.PREEMPTED, "preempted by a newer goal"
        return None

    # ------------------------------------------------------------ main
    async def run(self):
        try:
            return await self._run()
        except MotionFailure as failure:
            if failure.code not in (ErrorCode.CANCELLED, ErrorCode.PREEMPTED):
                self._hold_if_moving()
            return self._finish(failure.code, failure.message)
        except Exception as exc:  # a bug: report it, keep serving
            self.server.get_logger().error(f"{self.slot.kind_name} crashed:\n"
                                           f"{traceback.format_exc()}")
            self._hold_if_moving()
            return self._finish(ErrorCode.INTERNAL_ERROR, f"{type(exc).__name__}: {exc}")
        finally:
            self.slot.finished = True
            self.server.goal_finished(self.slot)

    def _hold_if_moving(self):
        if (self.slot.trajectory_sent or self.slot.inherited_motion) and not self.slot.preempted:
            self.server.stop_motion()

    async def _run(self):
        server, cfg = self.server, self.server.cfg
        server.streams.hold()     # joint_states and /clock, if an idle spell let them go
        model = await self._wait_for_model()
        kind = self.kind = self.kind_for(model)
        self.request = kind.validate(self.handle.request)
        q0 = await self._wait_for_joints(model)
        await self._wait_for_clock()
        await self._wait_for_controller()
        self.progress = kind.progress(q0, self.request)

        self.handle.publish_feedback(kind.feedback(self.progress, self.request, "planning"))
        planning_from = time.monotonic()
        job = server.worker.submit(kind.plan, q0, self.request)
        trajectory = await wait_for_worker(server, job, POLL_S,
                                           abandon=lambda: self._interrupted() is not None)
        self.planning_s = time.monotonic() - planning_from
        stop = self._interrupted()
        if stop:
            raise MotionFailure(*stop)

        motion = server.send_trajectory(trajectory, self.slot)
        if motion is None:
            raise MotionFailure(ErrorCode.PREEMPTED, "preempted by a newer goal")
        t_start = _clock_seconds(server)
        trajectory_clock = TrajectoryClock(t_start)
        settled_by = None          # node-clock time our tolerance must hold by, once the controller succeeded
        next_feedback = 0.0
        polls = PollGaps()
        while True:
            stop = self._interrupted()
            if stop:
                raise MotionFailure(*stop)
            q = model.joints(server.joint_cache, polls.max_age(cfg.joint_state_timeout))
            self.progress = kind.progress(q, self.request)
            now = _clock_seconds(server)
            if motion.refused:
                raise MotionFailure(ErrorCode.CONTROLLER_FAILED, self._refusal_text())
            outcome = motion.outcome()
            if outcome is not None:
                status, code, text = outcome
                if status != "SUCCEEDED":
                    raise self._controller_failure(status, code, text)
                if self.progress.within_tolerance:
                    return self._finish(ErrorCode.SUCCESS, self._success_text(now - t_start))
                if settled_by is None:
                    settled_by = now + cfg.settle_timeout
                elif now >= settled_by:
                    raise MotionFailure(ErrorCode.TOLERANCE_NOT_MET,
                                        f"the controller reached its goal {cfg.settle_timeout:g} s ago, "
                                        f"but {self._error_text()}")
            if trajectory_clock.advance(now, server.speed_scaling.fraction) >= self.request.timeout:
                scaled = "" if trajectory_clock.elapsed >= now - t_start - 1e-9 else \
                    f" of trajectory time, {now - t_start:.1f} s at the robot's speed scaling"
                raise MotionFailure(ErrorCode.TIMEOUT, f"not within tolerance after "
                                    f"{self.request.timeout:g} s{scaled} ({self._error_text()})")
            wall = time.monotonic()
            if wall >= next_feedback:
                next_feedback = wall + 1.0 / cfg.feedback_rate
                phase = "settling" if outcome is not None else "executing"
                self.handle.publish_feedback(kind.feedback(self.progress, self.request, phase))
            await sleep(server, POLL_S)

    def _refusal_text(self) -> str:
        return (f"the trajectory controller refused the goal on '{self.server.controller.action_name}': "
                f"it is inactive (another controller owns the arm) or the trajectory broke one of its "
                f"rules (its log says which)")

    def _controller_failure(self, status: str, code: str, text: str) -> MotionFailure:
        said = f"the trajectory controller ended the motion {status} {code}: {text or '(no text)'}; " \
               f"{self._error_text()}"
        if code == "GOAL_TOLERANCE_VIOLATED":
            return MotionFailure(ErrorCode.TOLERANCE_NOT_MET, said)
        return MotionFailure(ErrorCode.CONTROLLER_FAILED, said)

    def kind_for(self, model):
        return model.pose_kind if self.slot.kind_name == "move_to_pose" else model.joint_kind

    def _success_text(self, took: float) -> str:
        return f"reached in {took:.2f} s after {self.planning_s * 1000:.0f} ms of planning ({self._error_text()})"

    def _error_text(self) -> str:
        p = self.progress
        if self.slot.kind_name == "move_to_pose":
            return f"position error {p.position_error * 1000:.1f} mm, orientation error " \
                   f"{math.degrees(p.orientation_error):.2f} deg"
        return f"max joint error {p.position_error:.4f}"

    # ------------------------------------------------------------ waiting for inputs
    async def _wait_for(self, ready, what_missing, code=ErrorCode.NO_JOINT_STATES):
        deadline = time.monotonic() + self.server.cfg.startup_wait
        while True:
            value = ready()
            if value is not None:
                return value
            stop = self._interrupted()
            if stop:
                raise MotionFailure(*stop)
            if time.monotonic() >= deadline:
                raise MotionFailure(code, what_missing())
            await sleep(self.server, POLL_S)

    async def _wait_for_model(self):
        server = self.server
        return await self._wait_for(
            lambda: server.model,
            lambda: server.model_problem or f"no robot_description received on "
                                             f"'{server.description_topic}' within "
                                             f"{server.cfg.startup_wait:g} s")

    async def _wait_for_joints(self, model):
        cache, cfg = self.server.joint_cache, self.server.cfg
        problem = []

        def ready():
            try:
                return model.joints(cache, cfg.joint_state_timeout)
            except MotionFailure as failure:
                problem[:] = [failure.message]
                return None

        return await self._wait_for(ready, lambda: f"{problem[0] if problem else ''} (topic "
                                                   f"'{self.server.joint_states_topic}')")

    async def _wait_for_controller(self):
        server = self.server
        await self._wait_for(lambda: True if server.controller.ready() else None,
                             lambda: f"no trajectory controller serves '{server.controller.action_name}' "
                                     f"(control_msgs/FollowJointTrajectory) within {server.cfg.startup_wait:g} s",
                             code=ErrorCode.CONTROLLER_FAILED)

    async def _wait_for_clock(self):
        if not self.server.use_sim_time:
            return
        # after an idle spell the clock holds its last value until /clock comes back:
        # deadlines computed from it would lie in the past
        server = self.server
        await self._wait_for(lambda: True if _clock_seconds(server) > 0 and server.streams.clock_fresh() else None,
                             lambda: "use_sim_time is set but no fresh /clock has arrived")
