"""Iterative differential inverse kinematics with a choice of Jacobian inverse.

    solver = IkSolver(kin, IkConfig(method="dls"))
    result = solver.solve(Pose(position, quaternion_xyzw), q_seed)
    if result.success: command(result.q)
    else: print(result.reason)

Each iteration: error e = kin.pose_error(q, target); step dq from the chosen method (see
jacobian_inverse.py), with joints that would cross a limit held at the limit while the
others compensate, plus (for redundant arms) a small null-space pull toward mid-range; the
largest joint move is capped at `max_step`; q is clipped into the joint limits. The loop
stops on success (both errors within tolerance), on stalling (the error stopped shrinking:
typical for unreachable targets or joint-limit traps), or at the iteration cap; then up to
`restarts` more attempts start from perturbations of the seed and random configurations
(seeded, so the same call gives the same answer). A failed result still carries the best q
found, but it must not be commanded as if it reached the target.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np
import pinocchio as pin

from .errors import InputError
from .jacobian_inverse import IK_METHODS, ik_params_for, joint_step
from .kinematics import ArmKinematics
from .pose import Pose

# Iteration budgets per method: Newton-like steps converge in tens of iterations; the
# transpose (gradient) method converges linearly and needs far more.
DEFAULT_MAX_ITERATIONS = {"pinv": 200, "svd": 200, "dls": 200, "adaptive_dls": 300,
                          "trans": 3000}


@dataclass
class IkConfig:
    """Knobs of the IK loop. `ik_params` overrides the method's constants (see
    jacobian_inverse.DEFAULT_IK_PARAMS); `max_iterations=None` takes the method default."""

    method: str = "dls"
    ik_params: dict = field(default_factory=dict)
    position_tolerance: float = 1e-4      # m
    orientation_tolerance: float = 1e-3   # rad (angle of the residual rotation)
    max_iterations: int | None = None
    max_step: float = 0.2                 # rad (or m for prismatic) per joint per iteration
    stall_window: int = 30                # iterations without 0.1 % improvement -> give up
    restarts: int = 4                     # extra attempts from random configurations
    seed: int | None = 0                  # RNG seed for restarts (None: nondeterministic)
    limit_avoidance_gain: float = 0.1     # null-space pull toward mid-range (redundant arms)
    restart_margin: float = 0.1           # restarts sample inside this fraction off each limit

    def __post_init__(self):
        if self.method not in IK_METHODS:
            raise InputError(f"unknown IK method '{self.method}'; choose one of {list(IK_METHODS)}")
        try:
            self.params = ik_params_for(self.method, self.ik_params)
        except ValueError as exc:
            raise InputError(str(exc)) from None
        for name in ("position_tolerance", "orientation_tolerance", "max_step"):
            value = getattr(self, name)
            if not (isinstance(value, (int, float)) and math.isfinite(value) and value > 0):
                raise InputError(f"IkConfig.{name} must be a positive number, got {value!r}")
        if self.max_iterations is None:
            self.max_iterations = DEFAULT_MAX_ITERATIONS[self.method]
        if int(self.max_iterations) < 1 or int(self.restarts) < 0 or int(self.stall_window) < 1:
            raise InputError("IkConfig: max_iterations and stall_window must be >= 1, "
                             "restarts >= 0")


@dataclass
class IkResult:
    """Outcome of one solve. `q` is the best configuration found (the solution on success).

    `reason` is 'converged', or says why it failed, e.g. 'stalled at 2.41 m position error
    (target unreachable or blocked by joint limits)'.
    """

    success: bool
    q: np.ndarray
    position_error: float
    orientation_error: float
    iterations: int
    attempts: int
    reason: str
    method: str


class IkSolver:
    """Differential IK for one ArmKinematics and one IkConfig (reuse it across solves)."""

    def __init__(self, kinematics: ArmKinematics, config: IkConfig | None = None):
        self.kin = kinematics
        self.config = config or IkConfig()

    def solve(self, target: Pose, q_seed, position_only: bool = False) -> IkResult:
        """Find q with fk(q) == target (position only if `position_only`), starting at q_seed.

        Raises InputError for a non-finite/wrongly sized seed or a target that is not a Pose.
        """
        if not isinstance(target, Pose):
            raise InputError(f"IK target must be a Pose, got {type(target).__name__}")
        seed = self.kin.clamp(self.kin.check_q(q_seed, "IK seed"))
        cfg = self.config
        rng = np.random.default_rng(cfg.seed)  # per call: same inputs, same result
        best = None
        total_iterations = 0
        for attempt in range(int(cfg.restarts) + 1):
            start = seed if attempt == 0 else self._restart_configuration(seed, attempt, rng)
            outcome = self._attempt(target, start, position_only)
            total_iterations += outcome[4]
            if best is None or outcome[0] < best[0]:
                best = outcome
            if outcome[5]:
                break
        cost, q, pos_err, ori_err, _, converged, why = best
        reason = "converged" if converged else why
        return IkResult(bool(converged), q, pos_err, ori_err, total_iterations, attempt + 1,
                        reason, cfg.method)

    def _restart_configuration(self, seed: np.ndarray, attempt: int,
                               rng: np.random.Generator) -> np.ndarray:
        """Odd restarts perturb the seed (ever wider), even ones sample the whole range:
        nearby starts tend to find the solution branch closest to the seed, far ones
        escape a bad basin. Both stay `restart_margin` of each joint's span off its limits."""
        span = self.kin.upper - self.kin.lower
        low = self.kin.lower + self.config.restart_margin * span
        high = self.kin.upper - self.config.restart_margin * span
        if attempt % 2 == 1:
            spread = 0.4 * (attempt + 1) / 2
            return np.clip(seed + rng.normal(0.0, spread, self.kin.dof), low, high)
        return rng.uniform(low, high)

    def _attempt(self, target: Pose, q: np.ndarray, position_only: bool):
        """One descent from q. Returns (cost, q, pos_err, ori_err, iterations, ok, reason)."""
        cfg, kin = self.config, self.kin
        rows = 3 if position_only else 6
        best_cost, best_q, best_pe, best_oe = math.inf, q, math.inf, math.inf
        last_improvement = 0
        for iteration in range(int(cfg.max_iterations) + 1):
            placement, jac = kin.pose_and_jacobian(q)
            err = np.empty(6)
            err[:3] = target.position - placement.translation
            err[3:] = pin.log3(target.rotation @ placement.rotation.T)
            pos_err = float(np.linalg.norm(err[:3]))
            ori_err = 0.0 if position_only else float(np.linalg.norm(err[3:]))
            # Cost scales both tolerances to 1 so neither unit dominates the comparison.
            cost = max(pos_err / cfg.position_tolerance, ori_err / cfg.orientation_tolerance)
            if cost < best_cost * 0.999:
                last_improvement = iteration
            if cost < best_cost:
                best_cost, best_q, best_pe, best_oe = cost, q, pos_err, ori_err
            if cost <= 1.0:
                return cost, q, pos_err, ori_err, iteration, True, "converged"
            if iteration == cfg.max_iterations:
                break
            if iteration - last_improvement >= cfg.stall_window:
                return (best_cost, best_q, best_pe, best_oe, iteration, False,
                        f"stalled at {best_pe:.4g} m position / {best_oe:.4g} rad orientation "
                        "error (target unreachable or blocked by joint limits)")
            dq = self._step(q, jac[:rows], err[:rows])
            largest = float(np.max(np.abs(dq)))
            if not math.isfinite(largest):
                return (best_cost, best_q, best_pe, best_oe, iteration, False,
                        "Jacobian inverse produced a non-finite step")
            if largest > cfg.max_step:
                dq *= cfg.max_step / largest
            q = np.clip(q + dq, kin.lower, kin.upper)
        return (best_cost, best_q, best_pe, best_oe, int(cfg.max_iterations), False,
                f"no convergence in {cfg.max_iterations} iterations: {best_pe:.4g} m position / "
                f"{best_oe:.4g} rad orientation error")


    def _step(self, q: np.ndarray, task_jac: np.ndarray, task_err: np.ndarray) -> np.ndarray:
        """Joint step of the configured method, aware of the joint limits.

        A joint whose step would cross a limit is fixed at the limit (its remaining travel
        is subtracted from the task error and its column removed) and the step recomputed,
        so the free joints compensate instead of the clip silently eating the motion. With
        redundancy (more joints than task rows) a small motion toward mid-range is added in
        the task's null space, which keeps the arm from winding itself into its limits.
        """
        cfg, kin = self.config, self.kin
        fixed = np.zeros(kin.dof, dtype=bool)
        fixed_dq = np.zeros(kin.dof)
        jac, err = task_jac, task_err
        for _ in range(kin.dof):
            dq = joint_step(cfg.method, jac, err, cfg.params)
            dq[fixed] = fixed_dq[fixed]
            target = q + dq
            crossing = ~fixed & ((target > kin.upper) | (target < kin.lower))
            if not np.any(crossing):
                break
            fixed |= crossing
            fixed_dq[crossing] = np.clip(target, kin.lower, kin.upper)[crossing] - q[crossing]
            jac = task_jac.copy()
            jac[:, fixed] = 0.0
            err = task_err - task_jac[:, fixed] @ fixed_dq[fixed]
        if cfg.limit_avoidance_gain > 0 and task_jac.shape[0] < kin.dof:
            span = kin.upper - kin.lower
            toward_middle = cfg.limit_avoidance_gain * (0.5 * (kin.lower + kin.upper) - q) / span
            null = np.eye(kin.dof) - np.linalg.pinv(jac) @ jac
            centering = null @ toward_middle
            centering[fixed] = 0.0
            dq = dq + centering
        return dq


def solve_ik(kinematics: ArmKinematics, target: Pose, q_seed, config: IkConfig | None = None,
             position_only: bool = False) -> IkResult:
    """One-shot convenience wrapper around IkSolver(kinematics, config).solve(...)."""
    return IkSolver(kinematics, config).solve(target, q_seed, position_only)
