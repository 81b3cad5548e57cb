"""Operational-space control (Khatib): command the tool's pose and contact wrench directly.

The controller maps a task-space "acceleration" and a contact wrench to joint torques
through the Jacobian transpose, τ = Jᵀ F. One control period, every vector in base axes:

    e      = (p_des − p,  log3(R_des Rᵀ))          pose error of the tip
    V      = J q̇                                    tip twist
    a      = Kp e − Kd V                            Kd = 2 √Kp · ζ per task axis
    F_mot  = Λ S_m a     (inertial decoupling)     Λ = (J M⁻¹ Jᵀ)⁻¹, the tip's apparent mass
           = S_m a       (without)
    F_con  = S_f (w_des + K_w (w_des − w_meas))    feed-forward + closed-loop force term
    τ      = Jᵀ (F_mot + F_con) + N τ_null + g(q)   N = I − Jᵀ J̄ᵀ,  J̄ = M⁻¹ Jᵀ Λ

- S_m, S_f are selection matrices built from `motion_control_axes_task` and
  `contact_wrench_control_axes_task` in the task frame (task_frame.py): hybrid force/motion
  control moves along some task axes and pushes along others.
- Inertial decoupling scales the spring by Λ so the tip responds like a unit mass in every
  direction; "partial" ignores the coupling between translation and rotation (Λ inverted per
  3x3 block). Without it Kp is a plain Cartesian stiffness in N/m and N·m/rad.
- K_w (`contact_wrench_stiffness_task`) corrects the force from the measured wrench; only its
  first three (force) components are used; it needs a measured wrench in ArmState.
- Nullspace "position" pulls the joints towards a posture (default: the centre of the joint
  limits) with τ_null = M (k_n (q_n − q) − d_n q̇), projected by N so it cannot disturb the
  tip (dynamically consistent projector).

Targets (in the task frame): "pose_abs" (7: position, quaternion x y z w), "pose_rel" (6:
position offset and rotation vector applied to the measured tip pose), "wrench_abs" (6:
force, moment the tool should exert). Commands concatenate the targets in `target_types`
order, then, in "variable_kp" mode 6 stiffnesses and in "variable" mode 6 more damping
ratios. Options and defaults follow Isaac Lab's OperationalSpaceControllerCfg (facts looked
up, code our own).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

import numpy as np
import pinocchio as pin

from ..errors import InputError
from ..pose import Pose, as_vector
from .dynamics import ArmDynamics, DynamicsTerms
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
from .task_frame import axis_mask, rotate_diagonal, rotate_twist

TARGET_SIZES = {"pose_abs": 7, "pose_rel": 6, "wrench_abs": 6}
NULLSPACE_MODES = ("none", "position")


@dataclass(frozen=True)
class OperationalSpaceConfig:
    """Every option of the operational-space controller, with its default."""

    target_types: Sequence[str] = ("pose_abs",)
    motion_control_axes_task: Sequence[int] = (1, 1, 1, 1, 1, 1)
    contact_wrench_control_axes_task: Sequence[int] = (0, 0, 0, 0, 0, 0)
    inertial_dynamics_decoupling: bool = False
    partial_inertial_dynamics_decoupling: bool = False
    gravity_compensation: bool = False
    impedance_mode: str = "fixed"                          # "fixed" | "variable_kp" | "variable"
    motion_stiffness_task: float | Sequence[float] = 100.0
    motion_damping_ratio_task: float | Sequence[float] = 1.0
    motion_stiffness_limits_task: tuple = (0.0, 1000.0)
    motion_damping_ratio_limits_task: tuple = (0.0, 100.0)
    contact_wrench_stiffness_task: Sequence[float] | None = None   # 6; first 3 used
    nullspace_control: str = "none"                        # "none" | "position"
    nullspace_stiffness: float = 10.0
    nullspace_damping_ratio: float = 1.0


class OperationalSpaceController:
    """τ = Jᵀ (Λ S_m (Kp e − Kd V) + S_f (w + K_w (w − w_meas))) + N τ_null + g."""

    def __init__(self, config: OperationalSpaceConfig, dynamics: ArmDynamics):
        self.config = config
        self.dynamics = dynamics
        kin = dynamics.kinematics
        types = tuple(config.target_types)
        if not types:
            raise InputError("target_types is empty; give pose_abs, pose_rel and/or wrench_abs")
        for name in types:
            check_choice(name, TARGET_SIZES, "target type")
        if len(set(types)) != len(types) or {"pose_abs", "pose_rel"} <= set(types):
            raise InputError(f"target_types {list(types)}: each at most once, and not both "
                             "pose_abs and pose_rel")
        self.target_types = types
        self.mode = check_choice(config.impedance_mode, IMPEDANCE_MODES, "impedance_mode")
        check_choice(config.nullspace_control, NULLSPACE_MODES, "nullspace_control")
        self.motion_axes = axis_mask(config.motion_control_axes_task, "motion_control_axes_task")
        self.wrench_axes = axis_mask(config.contact_wrench_control_axes_task,
                                     "contact_wrench_control_axes_task")
        self.stiffness_limits = check_limits(config.motion_stiffness_limits_task, "stiffness")
        self.damping_ratio_limits = check_limits(config.motion_damping_ratio_limits_task,
                                                 "damping ratio")
        self.stiffness = gain_vector(config.motion_stiffness_task, 6, "motion stiffness",
                                     self.stiffness_limits)
        self.damping_ratio = gain_vector(config.motion_damping_ratio_task, 6,
                                         "motion damping ratio", self.damping_ratio_limits)
        self.wrench_stiffness = None
        if config.contact_wrench_stiffness_task is not None:
            kw = as_vector(config.contact_wrench_stiffness_task, 6, "contact_wrench_stiffness_task")
            if np.any(kw < 0):
                raise InputError(f"contact_wrench_stiffness_task {kw.tolist()} must be >= 0")
            self.wrench_stiffness = np.concatenate([kw[:3], np.zeros(3)])
        self.null_kp = gain_vector(config.nullspace_stiffness, kin.dof, "nullspace stiffness",
                                   (0.0, np.inf))
        self.null_kd = damping_from_ratio(self.null_kp, gain_vector(
            config.nullspace_damping_ratio, kin.dof, "nullspace damping ratio", (0.0, np.inf)))
        self.nullspace_target = (kin.lower + kin.upper) / 2.0
        self.task_frame = Pose(np.zeros(3))
        self.pose_target: Pose | None = None      # in the base frame; None = hold
        self.wrench_target = np.zeros(6)          # in the base frame

    # ------------------------------------------------------------------ commands
    @property
    def action_dim(self) -> int:
        return sum(TARGET_SIZES[t] for t in self.target_types) + 6 * GAIN_BLOCKS[self.mode]

    def set_command(self, command, current_tip: Pose | None = None,
                    task_frame: Pose | None = None) -> None:
        """Targets (and gains) in the task frame; "pose_rel" needs the measured `current_tip`.

        `task_frame` (pose of the task frame in the base frame) replaces the current one.
        A bad command raises InputError and leaves the previous one in force.
        """
        frame = self.task_frame if task_frame is None else task_frame
        size = sum(TARGET_SIZES[t] for t in self.target_types)
        targets, kp, ratio = split_command(command, size, 6, self.mode, "operational-space command")
        pose, wrench, k = self.pose_target, np.zeros(6), 0
        for name in self.target_types:
            part = targets[k:k + TARGET_SIZES[name]]
            k += TARGET_SIZES[name]
            if name == "pose_abs":
                pose = Pose.from_se3(frame.to_se3() * Pose(part[:3], part[3:]).to_se3())
            elif name == "pose_rel":
                pose = _relative_target(frame, current_tip, part)
            else:
                wrench = rotate_twist(frame.rotation, part)
        stiffness = self.stiffness if kp is None else gain_vector(
            kp, 6, "motion stiffness", self.stiffness_limits)
        damping_ratio = self.damping_ratio if ratio is None else gain_vector(
            ratio, 6, "motion damping ratio", self.damping_ratio_limits)
        self.task_frame, self.pose_target, self.wrench_target = frame, pose, wrench
        self.stiffness, self.damping_ratio = stiffness, damping_ratio

    def hold_here(self) -> None:
        """Forget the targets: the next compute() holds the tip where it is measured and
        exerts no wrench (what a controller does when it is (re)activated)."""
        self.pose_target, self.wrench_target = None, np.zeros(6)

    def set_nullspace_target(self, q) -> None:
        """Posture the nullspace term pulls towards (default: centre of the joint limits)."""
        self.nullspace_target = as_vector(q, self.dynamics.dof, "nullspace joint target")

    # ------------------------------------------------------------------ control law
    def compute(self, state: ArmState) -> np.ndarray:
        q, dq = np.asarray(state.q, float), np.asarray(state.dq, float)
        terms = self.dynamics.terms(q, dq)
        if self.pose_target is None:
            self.pose_target = Pose.from_se3(pin.SE3(terms.tip_rotation, terms.tip_position))
        cfg, rot = self.config, self.task_frame.rotation
        lam = None
        if cfg.inertial_dynamics_decoupling or cfg.nullspace_control == "position":
            m_inv_jt = np.linalg.solve(terms.mass_matrix, terms.jacobian.T)
            apparent_inverse = terms.jacobian @ m_inv_jt
            lam = np.linalg.inv(apparent_inverse)
        force = np.zeros(6)
        if "pose_abs" in self.target_types or "pose_rel" in self.target_types:
            accel = self._motion_acceleration(terms, rot)
            if cfg.inertial_dynamics_decoupling:
                decouple = (_block_inverse(apparent_inverse)
                            if cfg.partial_inertial_dynamics_decoupling else lam)
                force += decouple @ accel
            else:
                force += accel
        if "wrench_abs" in self.target_types:
            force += self._contact_force(state, rot)
        tau = terms.jacobian.T @ force
        if cfg.nullspace_control == "position":
            null_accel = self.null_kp * (self.nullspace_target - q) - self.null_kd * dq
            projector_t = np.eye(self.dynamics.dof) - terms.jacobian.T @ (m_inv_jt @ lam).T
            tau += projector_t @ (terms.mass_matrix @ null_accel)
        if cfg.gravity_compensation:
            tau += terms.gravity
        return tau

    def _motion_acceleration(self, terms: DynamicsTerms, rot: np.ndarray) -> np.ndarray:
        """S_m (Kp e − Kd V) in base axes."""
        target = self.pose_target
        error = np.concatenate([target.position - terms.tip_position,
                                pin.log3(target.rotation @ terms.tip_rotation.T)])
        kp = rotate_diagonal(rot, self.stiffness)
        kd = rotate_diagonal(rot, damping_from_ratio(self.stiffness, self.damping_ratio))
        return rotate_diagonal(rot, self.motion_axes) @ (kp @ error - kd @ terms.tip_twist)

    def _contact_force(self, state: ArmState, rot: np.ndarray) -> np.ndarray:
        """S_f (w_des + K_w (w_des − w_meas)) in base axes."""
        wrench = self.wrench_target.copy()
        if self.wrench_stiffness is not None:
            if state.wrench is None:
                raise InputError("contact_wrench_stiffness_task is set but the state carries "
                                 "no measured wrench (a force/torque sensor is needed)")
            measured = as_vector(state.wrench, 6, "measured wrench")
            wrench += rotate_diagonal(rot, self.wrench_stiffness) @ (wrench - measured)
        return rotate_diagonal(rot, self.wrench_axes) @ wrench


def _block_inverse(apparent_inverse: np.ndarray) -> np.ndarray:
    """Λ with the translation/rotation coupling ignored: each 3x3 block inverted alone."""
    out = np.zeros((6, 6))
    for block in (slice(0, 3), slice(3, 6)):
        out[block, block] = np.linalg.inv(apparent_inverse[block, block])
    return out


def _relative_target(frame: Pose, current_tip: Pose | None, delta: np.ndarray) -> Pose:
    """The measured tip pose moved by (dp, rotation vector) stated in task-frame axes."""
    if current_tip is None:
        raise InputError("operational-space command: 'pose_rel' targets need current_tip")
    rot = frame.rotation
    position = current_tip.position + rot @ delta[:3]
    rotation = pin.exp3(rot @ delta[3:]) @ current_tip.rotation
    return Pose.from_se3(pin.SE3(rotation, position))
