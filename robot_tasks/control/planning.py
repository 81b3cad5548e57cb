"""Collision-free joint-space paths with OMPL's RRT-Connect (ompl 2.x Python bindings).

    checker = CollisionChecker.from_urdf_file(kin, urdf, package_dirs, obstacles=[...])
    plan = plan_joint_path(checker, q_start, q_goal, time_limit=2.0)
    if plan.success: dense = interpolate_path(plan.path)      # then time_parameterize(...)
    else: print(plan.reason)

Edges are checked by OMPL's discrete motion validator every `collision_step` rad (the
resolution is converted into OMPL's fraction-of-space-extent setting). With the default
0.01 rad (Euclidean in joint space) a point 1.3 m from the axes moves at most a few cm
between checks, comparable to the checker's 1 cm obstacle padding: only obstacles thinner
than that could slip between two checks. The solution is shortcut by OMPL's path
simplifier, and finally every state of the result, densified the way `interpolate_path`
densifies it for the controller (at most DEFAULT_MAX_DQ = 0.006 rad per joint, or
`collision_step` if finer), is re-checked here — a path that comes back with success=True
has had every state the controller will be commanded verified. A path that fails the re-check (a contact that fell between
OMPL's checks) is planned again from a fresh tree while `time_limit` lasts.
"""
from __future__ import annotations

import math
import time
from dataclasses import dataclass

import numpy as np
from ompl import base as ob
from ompl import geometric as og
from ompl import util as ou

from .collision import CollisionChecker
from .errors import InputError
from .ik import IkConfig, IkSolver
from .interpolation import DEFAULT_MAX_DQ
from .pose import Pose

ou.setLogLevel(ou.LOG_WARN)  # OMPL prints every planner start at INFO level

# OMPL checks an edge at its own sample points, the re-check at others: a contact thinner
# than the step can show in one and not the other. A path failing the re-check is planned
# again from scratch (while time is left), at most this many times in all.
RECHECK_ATTEMPTS = 3


@dataclass
class PlanResult:
    """`path` is a k x dof array of waypoints from start to goal (empty on failure)."""

    success: bool
    path: np.ndarray
    reason: str
    planning_time: float = 0.0
    goal: np.ndarray | None = None


def first_invalid_state(checker: CollisionChecker, path, step: float = 0.01):
    """Check a waypoint path densified so no joint moves more than `step` rad between
    checks; return the first invalid configuration (an array), or None if all are valid."""
    pts = np.asarray(path, dtype=float)
    for a, b in zip(pts[:-1], pts[1:]):
        n = max(1, int(math.ceil(float(np.max(np.abs(b - a))) / step)))
        for t in np.arange(n + 1) / n:
            q = a + t * (b - a)
            if not checker.is_valid(q):
                return q
    if len(pts) == 1 and not checker.is_valid(pts[0]):
        return pts[0]
    return None


def plan_joint_path(checker: CollisionChecker, q_start, q_goal, time_limit: float = 2.0,
                    collision_step: float = 0.01, simplify: bool = True,
                    range_: float = 0.0) -> PlanResult:
    """Plan from q_start to q_goal around obstacles with RRT-Connect.

    `time_limit` bounds planning (s); `range_` is RRT-Connect's maximum extension (rad,
    0 = OMPL's automatic choice). Invalid start/goal configurations fail immediately with
    the colliding pair named.
    """
    kin = checker.kin
    q0 = kin.check_q(q_start, "q_start")
    q1 = kin.check_q(q_goal, "q_goal")
    if not (isinstance(time_limit, (int, float)) and math.isfinite(time_limit) and time_limit > 0):
        raise InputError(f"time_limit must be a positive number of seconds, got {time_limit!r}")
    if not (collision_step > 0 and math.isfinite(collision_step)):
        raise InputError(f"collision_step must be positive, got {collision_step!r}")
    for what, q in (("start", q0), ("goal", q1)):
        verdict = checker.describe(q)
        if verdict != "valid":
            return PlanResult(False, np.zeros((0, kin.dof)),
                              f"{what} configuration invalid: {verdict}")
    if first_invalid_state(checker, [q0, q1], collision_step) is None:
        return PlanResult(True, np.array([q0, q1]), "direct path is free", 0.0, q1)

    dof = kin.dof
    space = ob.RealVectorStateSpace(dof)
    bounds = ob.RealVectorBounds(dof)
    for j in range(dof):
        bounds.setLow(j, float(kin.lower[j]))
        bounds.setHigh(j, float(kin.upper[j]))
    space.setBounds(bounds)
    setup = og.SimpleSetup(space)

    def valid(state) -> bool:
        return checker.is_valid([state[j] for j in range(dof)])

    setup.setStateValidityChecker(valid)
    info = setup.getSpaceInformation()
    info.setStateValidityCheckingResolution(min(1.0, collision_step / space.getMaximumExtent()))
    planner = og.RRTConnect(info)
    if range_ > 0:
        planner.setRange(float(range_))
    setup.setPlanner(planner)
    start, goal = space.allocState(), space.allocState()
    for j in range(dof):
        start[j], goal[j] = float(q0[j]), float(q1[j])
    setup.setStartAndGoalStates(start, goal)

    began = time.perf_counter()
    deadline = began + float(time_limit)
    reason, attempts = "", 0
    while attempts < RECHECK_ATTEMPTS and (attempts == 0 or time.perf_counter() < deadline):
        attempts += 1
        setup.clear()                       # a fresh tree: the next path takes another way
        status = setup.solve(max(0.01, deadline - time.perf_counter()))
        if not setup.haveExactSolutionPath():
            elapsed = time.perf_counter() - began
            return PlanResult(False, np.zeros((0, dof)),
                              f"RRT-Connect found no path in {time_limit:.2f} s ({status})", elapsed)
        if simplify:
            setup.simplifySolution(max(0.05, deadline - time.perf_counter()))
        solution = setup.getSolutionPath()
        path = np.array([[solution.getState(i)[j] for j in range(dof)]
                         for i in range(solution.getStateCount())])
        path[0], path[-1] = q0, q1  # exact endpoints (OMPL copies them, this removes doubt)
        # the same samples interpolate_path will command (a coarser check can pass between them)
        bad = first_invalid_state(checker, path, min(collision_step, DEFAULT_MAX_DQ))
        if bad is None:
            return PlanResult(True, path, "planned", time.perf_counter() - began, q1)
        reason = f"planned path failed re-check: {checker.describe(bad)}"
    return PlanResult(False, np.zeros((0, dof)), f"{reason} ({attempts} attempts)", time.perf_counter() - began)


def plan_to_pose(checker: CollisionChecker, q_start, target: Pose, time_limit: float = 2.0,
                 ik_config: IkConfig | None = None, ik_candidates: int = 4,
                 **kwargs) -> PlanResult:
    """Solve IK for `target` (trying up to `ik_candidates` collision-free solutions, the
    nearest to q_start first) and plan to it. `result.goal` is the joint goal used."""
    kin = checker.kin
    q0 = kin.check_q(q_start, "q_start")
    config = ik_config or IkConfig(method="dls", restarts=0)
    solver = IkSolver(kin, config)
    rng = np.random.default_rng(config.seed)
    goals, last_reason = [], "no IK solution"
    for attempt in range(max(1, ik_candidates) * 3):
        seed = q0 if attempt == 0 else kin.random_configuration(rng)
        result = solver.solve(target, seed)
        if not result.success:
            last_reason = result.reason
            continue
        if not checker.is_valid(result.q):
            last_reason = f"IK solution in collision: {checker.describe(result.q)}"
            continue
        goals.append(result.q)
        if len(goals) >= ik_candidates:
            break
    if not goals:
        return PlanResult(False, np.zeros((0, kin.dof)), f"target pose unreachable: {last_reason}")
    goals.sort(key=lambda g: float(np.max(np.abs(g - q0))))
    deadline = time.perf_counter() + time_limit
    failure = None
    for goal in goals:
        remaining = deadline - time.perf_counter()
        if remaining <= 0.01:
            break
        plan = plan_joint_path(checker, q0, goal, remaining, **kwargs)
        if plan.success:
            return plan
        failure = plan
    return failure or PlanResult(False, np.zeros((0, kin.dof)), "planning time exhausted")
