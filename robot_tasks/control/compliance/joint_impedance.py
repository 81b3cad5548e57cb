"""Joint-space impedance control: every joint behaves like a damped spring to its target.

The control law, per control period, with e = q_des − q:

    a  = kp · e − kd · q̇                     kd = 2 √kp · ζ   (see gains.py)
    τ  = M(q) · a   + g(q)                    inertial and gravity compensation on
    τ  = a          + g(q)                    inertial compensation off (kp in N·m/rad)

With inertial compensation the arm's own inertia is cancelled, so each joint responds like a
*unit* mass on a spring of stiffness kp (units 1/s²), uniformly along the arm. Without it kp
is a plain joint stiffness, and an external torque τ_ext on one joint moves that joint by
τ_ext / kp at rest. Gravity compensation adds g(q) so the spring does not sag under the arm's
own weight.

Options and defaults follow Isaac Lab's JointImpedanceControllerCfg (facts looked up, code
our own): command type "p_abs" (absolute targets) or "p_rel" (targets relative to the
measured position); impedance modes "fixed" (n numbers: targets), "variable_kp" (2n: targets,
stiffness), "variable" (3n: targets, stiffness, damping ratio); stiffness limits (0, 300),
damping-ratio limits (0, 100); both compensations off by default. Isaac Lab leaves the
fixed stiffness without a default; ours is 100 with damping ratio 1.

    ctrl = JointImpedanceController(JointImpedanceConfig(gravity_compensation=True), dynamics)
    ctrl.set_command(q_target)                    # "fixed": n numbers
    tau = ctrl.compute(ArmState(q, dq))
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

import numpy as np

from ..errors import InputError
from ..pose import as_vector
from .dynamics import ArmDynamics
from .gains import (
    GAIN_BLOCKS,
    IMPEDANCE_MODES,
    check_choice,
    check_limits,
    damping_from_ratio,
    gain_vector,
    split_command,
)
from .state import ArmState

JOINT_COMMAND_TYPES = ("p_abs", "p_rel")


@dataclass(frozen=True)
class JointImpedanceConfig:
    """Every option of the joint impedance controller, with its default."""

    command_type: str = "p_abs"                    # "p_abs" | "p_rel"
    dof_pos_offset: Sequence[float] | None = None  # added to absolute targets (n values)
    impedance_mode: str = "fixed"                  # "fixed" | "variable_kp" | "variable"
    inertial_compensation: bool = False            # τ = M a + ...  instead of τ = a + ...
    gravity_compensation: bool = False             # ... + g(q)
    stiffness: float | Sequence[float] = 100.0     # kp, used in "fixed" mode (scalar or n)
    damping_ratio: float | Sequence[float] = 1.0   # ζ, used unless mode is "variable"
    stiffness_limits: tuple = (0.0, 300.0)
    damping_ratio_limits: tuple = (0.0, 100.0)


class JointImpedanceController:
    """τ = [M] (kp (q_des − q) − kd q̇) [+ g]  on the joints of `dynamics`."""

    def __init__(self, config: JointImpedanceConfig, dynamics: ArmDynamics):
        self.config = config
        self.dynamics = dynamics
        n = self.dof = dynamics.dof
        check_choice(config.command_type, JOINT_COMMAND_TYPES, "command_type")
        self.mode = check_choice(config.impedance_mode, IMPEDANCE_MODES, "impedance_mode")
        self.stiffness_limits = check_limits(config.stiffness_limits, "stiffness")
        self.damping_ratio_limits = check_limits(config.damping_ratio_limits, "damping ratio")
        self.offset = (np.zeros(n) if config.dof_pos_offset is None
                       else as_vector(config.dof_pos_offset, n, "dof_pos_offset"))
        self.stiffness = gain_vector(config.stiffness, n, "stiffness", self.stiffness_limits)
        self.damping_ratio = gain_vector(config.damping_ratio, n, "damping ratio",
                                         self.damping_ratio_limits)
        self.q_desired: np.ndarray | None = None   # set by set_command; None = hold

    @property
    def action_dim(self) -> int:
        """Numbers per command: n, 2n or 3n depending on the impedance mode."""
        return self.dof * (1 + GAIN_BLOCKS[self.mode])

    def set_command(self, command, current_q=None) -> None:
        """Targets (and gains, in the variable modes). "p_rel" needs the measured `current_q`.

        A bad command raises InputError and leaves the previous one in force.
        """
        n = self.dof
        targets, kp, ratio = split_command(command, n, n, self.mode, "joint impedance command")
        if self.config.command_type == "p_rel":
            if current_q is None:
                raise InputError("joint impedance command: 'p_rel' targets need current_q")
            q_des = as_vector(current_q, n, "current_q") + targets
        else:
            q_des = targets + self.offset
        stiffness = self.stiffness if kp is None else gain_vector(
            kp, n, "stiffness", self.stiffness_limits)
        damping_ratio = self.damping_ratio if ratio is None else gain_vector(
            ratio, n, "damping ratio", self.damping_ratio_limits)
        self.q_desired, self.stiffness, self.damping_ratio = q_des, stiffness, damping_ratio

    def hold_here(self) -> None:
        """Forget the target: the next compute() holds the joints where they are measured."""
        self.q_desired = None

    def compute(self, state: ArmState) -> np.ndarray:
        """Joint torques for the measured state (holds the measured pose if never commanded)."""
        q, dq = np.asarray(state.q, float), np.asarray(state.dq, float)
        if self.q_desired is None:
            self.q_desired = q.copy()
        kd = damping_from_ratio(self.stiffness, self.damping_ratio)
        accel = self.stiffness * (self.q_desired - q) - kd * dq
        cfg = self.config
        if not (cfg.inertial_compensation or cfg.gravity_compensation):
            return accel
        terms = self.dynamics.terms(q, dq)
        tau = terms.mass_matrix @ accel if cfg.inertial_compensation else accel
        return tau + terms.gravity if cfg.gravity_compensation else tau
