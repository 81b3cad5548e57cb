"""A rigid pose as position + unit quaternion (x, y, z, w), the order ROS messages use."""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pinocchio as pin

from .errors import InputError


def as_vector(values, length: int, what: str) -> np.ndarray:
    """Return `values` as a finite float vector of `length`, or raise InputError naming `what`."""
    try:
        vec = np.asarray(values, dtype=float).reshape(-1)
    except (TypeError, ValueError) as exc:
        raise InputError(f"{what}: not a numeric vector ({exc})") from None
    if vec.shape[0] != length:
        raise InputError(f"{what}: expected {length} values, got {vec.shape[0]}")
    if not np.all(np.isfinite(vec)):
        raise InputError(f"{what}: contains NaN or infinity: {vec.tolist()}")
    return vec


UNIT_QUATERNION_TOLERANCE = 0.01   # |x² + y² + z² + w² - 1| a goal may be off by (tf2's setTransform rule)


def unit_quaternion_problem(quaternion) -> str | None:
    """Why `quaternion` (x, y, z, w) is not a usable orientation *as given*, or None.

    A Pose normalizes any non-zero quaternion, which is right for values we compute; a
    quaternion that arrives in a goal is checked first: one of length 2 or (1, 1, 0, 0) is
    a caller's mistake (a wrong field, a missing normalization), not a rotation to guess.
    Values typed with 4-5 digits ("0.7071;0;0;0.7071") are well within the tolerance.
    """
    quat = np.asarray(quaternion, dtype=float).reshape(-1)
    if quat.shape[0] != 4 or not np.all(np.isfinite(quat)):
        return f"is not 4 finite numbers: {quat.tolist()}"
    squared = float(quat @ quat)
    if squared < 1e-12:
        return "is a zero quaternion"
    if abs(squared - 1.0) > UNIT_QUATERNION_TOLERANCE:
        return (f"is not normalized: length {squared ** 0.5:.4g} (x, y, z, w) = {quat.tolist()}; "
                f"send a unit quaternion")
    return None


@dataclass(frozen=True)
class Pose:
    """Position in metres and orientation as a unit quaternion in (x, y, z, w) order.

    The quaternion is normalized on construction; a zero or non-finite quaternion raises
    InputError, so a Pose that exists is always usable.
    """

    position: np.ndarray
    quaternion: np.ndarray = None  # type: ignore[assignment]  # default: identity

    def __post_init__(self):
        pos = as_vector(self.position, 3, "pose position")
        quat = np.array([0.0, 0.0, 0.0, 1.0]) if self.quaternion is None else \
            as_vector(self.quaternion, 4, "pose quaternion (x, y, z, w)")
        norm = float(np.linalg.norm(quat))
        if norm < 1e-9:
            raise InputError("pose quaternion (x, y, z, w) has zero length")
        object.__setattr__(self, "position", pos)
        object.__setattr__(self, "quaternion", quat / norm)

    @property
    def rotation(self) -> np.ndarray:
        """3x3 rotation matrix."""
        x, y, z, w = self.quaternion
        return pin.Quaternion(w, x, y, z).toRotationMatrix()

    def matrix(self) -> np.ndarray:
        """4x4 homogeneous transform."""
        out = np.eye(4)
        out[:3, :3] = self.rotation
        out[:3, 3] = self.position
        return out

    def to_se3(self) -> pin.SE3:
        return pin.SE3(self.rotation, self.position.copy())

    @classmethod
    def from_se3(cls, placement: pin.SE3) -> "Pose":
        return cls(placement.translation.copy(), pin.Quaternion(placement.rotation).coeffs().copy())

    @classmethod
    def from_matrix(cls, matrix) -> "Pose":
        mat = np.asarray(matrix, dtype=float)
        if mat.shape != (4, 4) or not np.all(np.isfinite(mat)):
            raise InputError(f"pose matrix: expected a finite 4x4 array, got shape {mat.shape}")
        rot = mat[:3, :3]
        if not np.allclose(rot @ rot.T, np.eye(3), atol=1e-6):
            raise InputError("pose matrix: upper-left 3x3 block is not a rotation")
        return cls(mat[:3, 3].copy(), pin.Quaternion(rot).coeffs().copy())

    def __repr__(self) -> str:
        p = np.round(self.position, 4).tolist()
        q = np.round(self.quaternion, 4).tolist()
        return f"Pose(position={p}, quaternion_xyzw={q})"
