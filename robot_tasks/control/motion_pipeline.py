"""Turn a validated motion request into one timed joint trajectory (pure: no ROS imports).

    planner = MotionPlanner(kin, settings, checker_factory=lambda: checker)
    traj = planner.plan_pose(q_measured, request)     # TimedTrajectory, or raises MotionFailure
    traj = planner.plan_joints(q_measured, joint_request)

The three pose motions (see MoveToPose.action):
- FREE: one IK solution (seeded at the measured joints, with random restarts), then the
  straight joint-space line to it;
- PLANNED: IK, then OMPL RRT-Connect around the box obstacles: the static ones of the
  checker plus the run-time set given to `set_runtime_obstacles` (e.g. a perceived bowl;
  each call replaces the set, applied when the next PLANNED goal is planned);
- CARTESIAN: the tool moves along the straight segment to the target (orientation
  slerped), by repeated IK without restarts;
- BOUNDED: one IK solution, then n equal joint steps q_i = q_start + (q_goal - q_start)·i/n,
  n = max(min_steps, ceil(|q_goal - q_start|_inf / max_dq)) with the goal's own max_dq and
  min_steps, each step lasting at least one `command_period` of the controller, then a
  hold of `bounded_hold_time` at q_goal. Positions only, so the controller interpolates
  linearly, and point 1 is the first point: the controller starts from its own current
  command (as joint_trajectory_controller does for a first point after t=0). Sampled once
  per control step, consecutive commands then differ by at most max_dq — what a grasped
  object needs to be carried without slipping (lift, transport).
The other paths are densified so no joint moves more than `max_dq` between points and
timed by robot_tasks.control.make_trajectory: with `joint_limits` in the settings (the
arm server loads config/limits/<robot>.yaml), time-optimal under the velocity limits
(the lower of the URDF's and the file's) scaled by the goal's velocity_scaling and the
acceleration limits scaled by `acceleration_scaling`, and jerk-limited
(robot_tasks.control.time_optimal); without, by the old velocity-only rule (ramp_time).
Their row 0 is the measured configuration, so the controller starts where the arm is.
"""
from __future__ import annotations

import threading
from dataclasses import dataclass, replace
from typing import Callable, Optional

import numpy as np

from robot_tasks.control import (
    ArmKinematics,
    CollisionChecker,
    IkConfig,
    IkSolver,
    TimedTrajectory,
    cartesian_line,
    interpolate_joints,
    make_trajectory,
    plan_joint_path,
)
from robot_tasks.control.errors import ControlError
from robot_tasks.control.joint_limits import JointLimits
from robot_tasks.control.motion_errors import ErrorCode, MotionFailure
from robot_tasks.control.motion_request import JointRequest, Motion, PoseRequest
from robot_tasks.control.time_optimal import warm_up as warm_up_timing


@dataclass(frozen=True)
class PlannerSettings:
    """Knobs of the planner, filled from the arm_server's parameters (their defaults are
    declared there; the last two are the library's own)."""

    ik_method: str                        # one of robot_tasks.control.IK_METHODS
    ik_restarts: int
    max_dq: float                         # rad between consecutive trajectory points
    min_steps: int
    ramp_time: float                      # s of speed ramp at start and end (velocity-only timing)
    planning_time: float                  # s for RRT-Connect
    cartesian_step: float                 # m between Cartesian waypoints
    cartesian_max_joint_jump: float = 0.1 # rad between Cartesian waypoints
    default_velocity_limit: float = 1.0   # rad/s for joints whose URDF gives none
    command_period: float = 1.0 / 240.0   # s: the controller's control step (BOUNDED steps last >= this)
    bounded_hold_time: float = 0.2        # s: BOUNDED holds q_goal this long after the last step
    joint_limits: Optional[JointLimits] = None  # acceleration/jerk (+ velocity) limits; None =
                                                # the old velocity-only timing with ramp_time
    acceleration_scaling: float = 1.0     # fraction of the acceleration limits, (0, 1]
    sample_period: float = 0.01           # s between the points of a time-optimal trajectory


class MotionPlanner:
    """Plans for one arm. `checker_factory` returns the CollisionChecker (or None when
    collision geometry is unavailable); it is called only for PLANNED goals."""

    def __init__(self, kin: ArmKinematics, settings: PlannerSettings,
                 checker_factory: Optional[Callable[[], Optional[CollisionChecker]]] = None):
        self.kin = kin
        self.settings = settings
        self._checker_factory = checker_factory
        self.ik_config = IkConfig(method=settings.ik_method, restarts=int(settings.ik_restarts))
        self.ik = IkSolver(kin, self.ik_config)
        limits = np.asarray(kin.velocity_limits, dtype=float)
        ok = np.isfinite(limits) & (limits > 0)
        self.velocity_limits = np.where(ok, limits, settings.default_velocity_limit)
        self.joint_limits = None
        if settings.joint_limits is not None:
            self.joint_limits = JointLimits.combine(kin.joint_names, self.velocity_limits,
                                                    settings.joint_limits)
            # toppra's import takes seconds (it loads matplotlib): not in the first goal.
            threading.Thread(target=warm_up_timing, daemon=True).start()
        self.runtime_obstacles: tuple = ()

    def set_runtime_obstacles(self, boxes) -> None:
        """Boxes (base frame) that PLANNED goals avoid besides the checker's static ones.
        Safe to call from another thread: one tuple is swapped in, read at planning time."""
        self.runtime_obstacles = tuple(boxes)

    # ------------------------------------------------------------------ public
    def plan_pose(self, q_now, request: PoseRequest) -> TimedTrajectory:
        """Trajectory from q_now to the request's target pose; raises MotionFailure."""
        q0 = self._start(q_now)
        if request.motion == Motion.FREE:
            path = np.array([q0, self._solve_ik(q0, request)])
        elif request.motion == Motion.PLANNED:
            path = self._planned_path(q0, request)
        elif request.motion == Motion.CARTESIAN:
            path = self._cartesian_path(q0, request)
        elif request.motion == Motion.BOUNDED:
            return self._bounded(q0, self._solve_ik(q0, request), request)
        else:  # pose_request() already rejects this; kept so a bug cannot fall through
            raise MotionFailure(ErrorCode.INVALID_GOAL, f"unknown motion {request.motion}")
        return self._timed(path, request.velocity_scaling)

    def plan_joints(self, q_now, request: JointRequest) -> TimedTrajectory:
        """Joint-space line from q_now to the requested joints."""
        q0 = self._start(q_now)
        return self._timed(np.array([q0, request.positions]), request.velocity_scaling)

    def hold(self, q_now) -> TimedTrajectory:
        """A one-point trajectory at q_now (clamped into the limits): "stop here"."""
        q0 = self._start(q_now)
        return TimedTrajectory(list(self.kin.joint_names), [q0.tolist()],
                               [[0.0] * self.kin.dof], [0.0])

    # ------------------------------------------------------------------ steps
    def _start(self, q_now) -> np.ndarray:
        try:
            return self.kin.clamp(self.kin.check_q(q_now, "measured joints"))
        except ControlError as exc:
            raise MotionFailure(ErrorCode.NO_JOINT_STATES, str(exc)) from None

    def _solve_ik(self, q0: np.ndarray, request: PoseRequest) -> np.ndarray:
        result = self.ik.solve(request.target_in_base, q0)
        if not result.success:
            raise MotionFailure(ErrorCode.UNREACHABLE,
                                f"no IK solution for {request.target_in_base} "
                                f"(in base frame '{self.kin.base_frame}'): {result.reason}")
        return result.q

    def _planned_path(self, q0: np.ndarray, request: PoseRequest) -> np.ndarray:
        checker = self._checker_factory() if self._checker_factory else None
        if checker is None:
            raise MotionFailure(ErrorCode.PLANNING_FAILED,
                                "PLANNED motion needs the robot's collision geometry, which "
                                "could not be loaded from robot_description (see the log)")
        try:
            checker.set_runtime_obstacles(self.runtime_obstacles)
        except ControlError as exc:
            raise MotionFailure(ErrorCode.PLANNING_FAILED, f"run-time obstacles: {exc}") from None
        start_verdict = checker.describe(q0)
        if start_verdict != "valid":
            raise MotionFailure(ErrorCode.PLANNING_FAILED,
                                f"start configuration is not collision-free ({start_verdict}); "
                                "move clear first, e.g. with a CARTESIAN lift")
        # Several IK solutions, nearest first: the first may touch an obstacle.
        candidates, last = [], None
        rng = np.random.default_rng(0)
        single = IkSolver(self.kin, replace(self.ik_config, restarts=0))
        for attempt in range(12):
            seed = q0 if attempt == 0 else self.kin.random_configuration(rng, margin=0.1)
            result = single.solve(request.target_in_base, seed)
            if not result.success:
                continue
            verdict = checker.describe(result.q)
            if verdict == "valid":
                candidates.append(result.q)
            else:
                last = verdict
            if len(candidates) >= 3:
                break
        if not candidates:
            if last is None:
                raise MotionFailure(ErrorCode.UNREACHABLE,
                                    f"no IK solution for {request.target_in_base}")
            raise MotionFailure(ErrorCode.PLANNING_FAILED,
                                f"every IK solution of the target collides ({last})")
        candidates.sort(key=lambda g: float(np.max(np.abs(g - q0))))
        reasons = []
        per_try = self.settings.planning_time / len(candidates)
        for goal in candidates:
            plan = plan_joint_path(checker, q0, goal, time_limit=per_try)
            if plan.success:
                return plan.path
            reasons.append(plan.reason)
        raise MotionFailure(ErrorCode.PLANNING_FAILED,
                            f"RRT-Connect found no collision-free path: {'; '.join(reasons)}")

    def _cartesian_path(self, q0: np.ndarray, request: PoseRequest) -> np.ndarray:
        target = request.target_in_base
        line = cartesian_line(self.kin, q0, target.position, target.quaternion,
                              step=self.settings.cartesian_step,
                              max_joint_jump=self.settings.cartesian_max_joint_jump,
                              ik_config=self.ik_config)
        if line.success:
            return line.path
        reachable = self.ik.solve(target, q0).success
        code = ErrorCode.PLANNING_FAILED if reachable else ErrorCode.UNREACHABLE
        raise MotionFailure(code, f"no straight-line path to {target}: {line.reason}")

    def _bounded(self, q0: np.ndarray, goal: np.ndarray, request: PoseRequest) -> TimedTrajectory:
        """Equal steps of at most request.max_dq, each >= one command period, then a hold."""
        steps = interpolate_joints(q0, goal, request.max_dq, request.min_steps)
        increment = np.abs(steps[1] - steps[0])
        speed = self.velocity_limits * request.velocity_scaling
        step_time = max(float(np.max(increment / speed)), self.settings.command_period)
        times = [step_time * i for i in range(1, len(steps))]
        positions = [row.tolist() for row in steps[1:]]
        positions.append(positions[-1])
        times.append(times[-1] + self.settings.bounded_hold_time)
        return TimedTrajectory(list(self.kin.joint_names), positions, [[] for _ in positions], times)

    def _timed(self, path: np.ndarray, velocity_scaling: float) -> TimedTrajectory:
        s = self.settings
        return make_trajectory(path, list(self.kin.joint_names), self.velocity_limits,
                               velocity_scaling, s.max_dq, s.min_steps, s.ramp_time,
                               limits=self.joint_limits,
                               acceleration_scaling=s.acceleration_scaling,
                               sample_period=s.sample_period)
