"""Forward kinematics and Jacobians of one serial chain, computed by Pinocchio from a URDF.

`ArmKinematics` wraps a *reduced* Pinocchio model: only the joints you name move; every
other movable joint (e.g. the Panda's fingers) is frozen at a reference value. All vectors
use *your* joint order, and every pose is expressed in the chosen base frame.

    kin = ArmKinematics.from_urdf_file(path, tip_frame="tool0", joint_names=[...])
    pose = kin.fk(q)                 # Pose(position, quaternion xyzw) of the tip
    J = kin.jacobian(q)              # 6 x n, rows (vx, vy, vz, wx, wy, wz) in base axes
    e = kin.pose_error(q, target)    # 6-vector: position error; log3 rotation error
"""
from __future__ import annotations

import os

import numpy as np
import pinocchio as pin

from .errors import InputError, ModelError
from .pose import Pose, as_vector
from .robot_models import ArmSpec


def _pinocchio_model(build, urdf, source: str) -> pin.Model:
    """`build(urdf)` (Pinocchio's reader of URDF text or of a file), a parse error as a
    ModelError that names `source`."""
    try:
        return build(urdf)
    except (RuntimeError, ValueError) as exc:
        raise ModelError(f"{source}: Pinocchio could not parse the URDF: {exc}") from None


class ArmKinematics:
    """Kinematics of the chain base_frame -> tip_frame moved by `joint_names`.

    Build it with `from_urdf_file`, `from_urdf_string` or `from_spec`. The base frame must
    be fixed to the world (no controlled joint moves it). Joints must be 1-DoF (revolute or
    prismatic); continuous joints are rejected because they use (cos, sin) coordinates.
    """

    def __init__(self, full_model: pin.Model, tip_frame: str, joint_names=None,
                 base_frame: str | None = None, locked_joints: dict | None = None,
                 source: str = "<model>"):
        self.source = source
        self.full_model = full_model
        movable = [full_model.names[i] for i in range(1, full_model.njoints)]
        names = list(joint_names) if joint_names is not None else movable
        if not names:
            raise ModelError(f"{source}: no joints to control")
        for name in names:
            if not full_model.existJointName(name):
                raise ModelError(f"{source}: unknown joint '{name}'; joints are {movable}")
        if len(set(names)) != len(names):
            raise ModelError(f"{source}: joint names repeat: {names}")
        locked_joints = dict(locked_joints or {})
        for name in locked_joints:
            if not full_model.existJointName(name):
                raise ModelError(f"{source}: unknown locked joint '{name}'")

        # Reference configuration for the frozen joints: their given value, else neutral
        # clamped into limits (neutral can lie outside, e.g. a finger range 0..0.04).
        q_ref = pin.neutral(full_model)
        q_ref = np.clip(q_ref, full_model.lowerPositionLimit, full_model.upperPositionLimit)
        for name, value in locked_joints.items():
            joint = full_model.joints[full_model.getJointId(name)]
            if joint.nq != 1:
                raise ModelError(f"{source}: locked joint '{name}' is not 1-DoF")
            q_ref[joint.idx_q] = float(value)
        self.reference_configuration = q_ref
        self.locked_joint_ids = [i for i in range(1, full_model.njoints)
                                 if full_model.names[i] not in names]
        self.model = pin.buildReducedModel(full_model, self.locked_joint_ids, q_ref)
        self.data = self.model.createData()

        # Map user order <-> model order (the reduced model keeps tree order).
        self.joint_names = tuple(names)
        self._idx = np.empty(len(names), dtype=int)
        for k, name in enumerate(names):
            joint = self.model.joints[self.model.getJointId(name)]
            if joint.nq != 1 or joint.nv != 1:
                raise ModelError(f"{source}: joint '{name}' has {joint.nq} coordinates; "
                                 "only 1-DoF revolute/prismatic joints are supported")
            self._idx[k] = joint.idx_q
        self.lower = self.model.lowerPositionLimit[self._idx].copy()
        self.upper = self.model.upperPositionLimit[self._idx].copy()
        if np.any(self.lower > self.upper):
            raise ModelError(f"{source}: a joint's lower limit exceeds its upper limit")
        self.velocity_limits = self.model.velocityLimit[self._idx].copy()

        if not self.model.existFrame(tip_frame):
            raise ModelError(f"{source}: unknown tip frame '{tip_frame}'")
        self.tip_frame = tip_frame
        self._tip_id = self.model.getFrameId(tip_frame)
        self.base_frame = base_frame or self.model.frames[0].name
        if not self.model.existFrame(self.base_frame):
            raise ModelError(f"{source}: unknown base frame '{self.base_frame}'")
        base_id = self.model.getFrameId(self.base_frame)
        if self.model.frames[base_id].parentJoint != 0:
            raise ModelError(f"{source}: base frame '{self.base_frame}' is moved by a "
                             "controlled joint; choose a frame fixed to the world")
        # Fixed placement of the base frame in Pinocchio's world (universe).
        self._world_to_base = self.model.frames[base_id].placement.copy()
        self._base_inv = self._world_to_base.inverse()
        self._base_rot_t = self._world_to_base.rotation.T.copy()

    # ---------------------------------------------------------------- construction
    @classmethod
    def from_urdf_string(cls, urdf_xml: str, tip_frame: str, joint_names=None,
                         base_frame: str | None = None, locked_joints: dict | None = None,
                         source: str = "<robot_description>") -> "ArmKinematics":
        """Build from URDF text (e.g. a `robot_description` parameter)."""
        if not isinstance(urdf_xml, str) or "<robot" not in urdf_xml:
            raise ModelError(f"{source}: not URDF text (no <robot> element)")
        model = _pinocchio_model(pin.buildModelFromXML, urdf_xml, source)
        return cls(model, tip_frame, joint_names, base_frame, locked_joints, source)

    @classmethod
    def from_urdf_file(cls, path: str, tip_frame: str, joint_names=None,
                       base_frame: str | None = None,
                       locked_joints: dict | None = None) -> "ArmKinematics":
        """Build from a URDF file on disk."""
        if not os.path.isfile(path):
            raise ModelError(f"URDF not found: {path}")
        model = _pinocchio_model(pin.buildModelFromUrdf, path, path)
        return cls(model, tip_frame, joint_names, base_frame, locked_joints, path)

    @classmethod
    def from_spec(cls, spec: ArmSpec) -> "ArmKinematics":
        """Build one of the known arms (see robot_models.panda_spec / ur10_spec)."""
        return cls.from_urdf_file(spec.urdf_path, spec.tip_frame, spec.joint_names,
                                  spec.base_frame, spec.locked_joints)

    @property
    def model_indices(self) -> np.ndarray:
        """Index in the reduced model's q (and v) of each joint, in `joint_names` order."""
        return self._idx.copy()

    @property
    def base_placement(self) -> pin.SE3:
        """Fixed placement of the base frame in Pinocchio's world (the URDF root)."""
        return self._world_to_base.copy()

    # ---------------------------------------------------------------- joint vectors
    @property
    def dof(self) -> int:
        return len(self.joint_names)

    def check_q(self, q, what: str = "joint positions") -> np.ndarray:
        """Return q as a finite float vector of length dof, or raise InputError."""
        return as_vector(q, self.dof, what)

    def clamp(self, q) -> np.ndarray:
        """q clipped into the joint limits."""
        return np.clip(self.check_q(q), self.lower, self.upper)

    def within_limits(self, q, tolerance: float = 1e-9) -> bool:
        q = self.check_q(q)
        return bool(np.all(q >= self.lower - tolerance) and np.all(q <= self.upper + tolerance))

    def random_configuration(self, rng: np.random.Generator, margin: float = 0.0) -> np.ndarray:
        """Uniform sample inside the limits shrunk by `margin` on both sides."""
        lo, hi = self.lower + margin, self.upper - margin
        return rng.uniform(np.minimum(lo, hi), np.maximum(lo, hi))

    def to_model_q(self, q) -> np.ndarray:
        """Reorder a user-order vector into the reduced model's configuration vector."""
        out = np.zeros(self.model.nq)
        out[self._idx] = q
        return out

    # ---------------------------------------------------------------- kinematics
    def _tip_world(self, q) -> pin.SE3:
        qm = self.to_model_q(self.check_q(q))
        pin.framesForwardKinematics(self.model, self.data, qm)
        return self.data.oMf[self._tip_id]

    def fk_se3(self, q) -> pin.SE3:
        """Tip placement in the base frame as a pinocchio.SE3."""
        return self._base_inv * self._tip_world(q)

    def fk(self, q) -> Pose:
        """Tip pose in the base frame."""
        return Pose.from_se3(self.fk_se3(q))

    def fk_matrix(self, q) -> np.ndarray:
        """Tip pose in the base frame as a 4x4 homogeneous matrix."""
        return self.fk_se3(q).homogeneous.copy()

    def frame_pose(self, q, frame: str) -> Pose:
        """Pose of any frame of the model in the base frame (e.g. for debugging)."""
        if not self.model.existFrame(frame):
            raise InputError(f"unknown frame '{frame}'")
        qm = self.to_model_q(self.check_q(q))
        pin.framesForwardKinematics(self.model, self.data, qm)
        return Pose.from_se3(self._base_inv * self.data.oMf[self.model.getFrameId(frame)])

    def jacobian(self, q) -> np.ndarray:
        """6 x dof frame Jacobian of the tip, LOCAL_WORLD_ALIGNED, axes of the base frame.

        Rows are (linear velocity of the tip origin, angular velocity); columns follow
        `joint_names`.
        """
        qm = self.to_model_q(self.check_q(q))
        jac = pin.computeFrameJacobian(self.model, self.data, qm, self._tip_id,
                                       pin.ReferenceFrame.LOCAL_WORLD_ALIGNED)[:, self._idx]
        jac[:3] = self._base_rot_t @ jac[:3]
        jac[3:] = self._base_rot_t @ jac[3:]
        return jac

    def pose_error(self, q, target: Pose) -> np.ndarray:
        """6-vector that drives the tip to `target`: (p_target - p, log3(R_target R^T)).

        Both halves are in base-frame axes, matching `jacobian`, so J dq ≈ error.
        """
        current = self.fk_se3(q)
        err = np.empty(6)
        err[:3] = target.position - current.translation
        err[3:] = pin.log3(target.rotation @ current.rotation.T)
        return err

    def pose_and_jacobian(self, q):
        """Tip SE3 and Jacobian from one kinematics pass; q is trusted (the IK inner loop)."""
        qm = self.to_model_q(q)
        pin.computeJointJacobians(self.model, self.data, qm)
        pin.updateFramePlacements(self.model, self.data)
        jac = pin.getFrameJacobian(self.model, self.data, self._tip_id,
                                   pin.ReferenceFrame.LOCAL_WORLD_ALIGNED)[:, self._idx]
        jac[:3] = self._base_rot_t @ jac[:3]
        jac[3:] = self._base_rot_t @ jac[3:]
        return self._base_inv * self.data.oMf[self._tip_id], jac
