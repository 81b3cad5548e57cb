"""Pinhole camera model in the ROS/OpenCV optical convention, and back-projection.

Conventions (the same as sensor_msgs/CameraInfo):

* Pixel (u, v) = (column, row); the centre of the top-left pixel is (0, 0).
* The optical frame has x to the right, y down, z forward (out of the lens).
* A point (x, y, z) in that frame lands on u = fx * x / z + cx, v = fy * y / z + cy.
* Depth is the z coordinate (distance along the optical axis, not along the ray), in metres.

``world_T_camera`` is the 4x4 homogeneous transform that maps optical-frame points into
the world: p_world = world_T_camera @ [x, y, z, 1].
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from robot_tasks.perception.errors import PerceptionInputError


@dataclass(frozen=True)
class CameraIntrinsics:
    """Focal lengths and principal point in pixels, plus the image size they belong to."""

    fx: float
    fy: float
    cx: float
    cy: float
    width: int
    height: int

    def __post_init__(self) -> None:
        for name in ("fx", "fy", "cx", "cy"):
            value = float(getattr(self, name))
            if not np.isfinite(value):
                raise PerceptionInputError(f"intrinsics.{name}: must be finite, got {value}")
        if self.fx <= 0 or self.fy <= 0:
            raise PerceptionInputError(
                f"intrinsics: focal lengths must be positive, got fx={self.fx}, fy={self.fy}")
        if int(self.width) != self.width or int(self.height) != self.height \
                or self.width <= 0 or self.height <= 0:
            raise PerceptionInputError(
                f"intrinsics: width/height must be positive integers, got {self.width}x{self.height}")

    @classmethod
    def from_k(cls, k, width: int, height: int) -> "CameraIntrinsics":
        """Build from a 3x3 K matrix or the 9-element row-major list of CameraInfo.k."""
        k = np.asarray(k, dtype=float).reshape(-1)
        if k.size != 9:
            raise PerceptionInputError(f"K: expected 9 elements (3x3), got {k.size}")
        return cls(fx=float(k[0]), fy=float(k[4]), cx=float(k[2]), cy=float(k[5]),
                   width=int(width), height=int(height))

    @property
    def k(self) -> np.ndarray:
        """The 3x3 K matrix (row-major), as CameraInfo.k holds it."""
        return np.array([[self.fx, 0.0, self.cx], [0.0, self.fy, self.cy], [0.0, 0.0, 1.0]])

    def project(self, points_camera: np.ndarray) -> np.ndarray:
        """Project optical-frame points (N, 3) to pixel coordinates (N, 2) as (u, v)."""
        p = np.asarray(points_camera, dtype=float).reshape(-1, 3)
        return np.stack([self.fx * p[:, 0] / p[:, 2] + self.cx,
                         self.fy * p[:, 1] / p[:, 2] + self.cy], axis=1)


def validate_pose(world_T_camera) -> np.ndarray:
    """Return the pose as a float (4, 4) array, or raise if it is not a rigid transform."""
    t = np.asarray(world_T_camera, dtype=float)
    if t.shape != (4, 4):
        raise PerceptionInputError(f"world_T_camera: expected a 4x4 matrix, got shape {t.shape}")
    if not np.all(np.isfinite(t)):
        raise PerceptionInputError("world_T_camera: contains NaN or inf")
    rot = t[:3, :3]
    if not np.allclose(t[3], [0, 0, 0, 1], atol=1e-6) \
            or not np.allclose(rot @ rot.T, np.eye(3), atol=1e-4) or np.linalg.det(rot) < 0:
        raise PerceptionInputError(
            "world_T_camera: not a rigid transform (rotation must be orthonormal with det +1, "
            "last row [0, 0, 0, 1])")
    return t


def pose_from_position_quaternion(position, quaternion_xyzw) -> np.ndarray:
    """world_T_camera from a position and an (x, y, z, w) quaternion, e.g. node parameters
    or a geometry_msgs/Pose of the optical frame. The quaternion is normalised here."""
    pos = np.asarray(position, dtype=float).reshape(-1)
    q = np.asarray(quaternion_xyzw, dtype=float).reshape(-1)
    if pos.size != 3 or q.size != 4 or not (np.all(np.isfinite(pos)) and np.all(np.isfinite(q))):
        raise PerceptionInputError("camera pose: need 3 finite position values and 4 quaternion values")
    norm = np.linalg.norm(q)
    if norm < 1e-9:
        raise PerceptionInputError("camera pose: quaternion has zero length")
    x, y, z, w = q / norm
    t = np.eye(4)
    t[:3, :3] = [[1 - 2 * (y * y + z * z), 2 * (x * y - z * w), 2 * (x * z + y * w)],
                 [2 * (x * y + z * w), 1 - 2 * (x * x + z * z), 2 * (y * z - x * w)],
                 [2 * (x * z - y * w), 2 * (y * z + x * w), 1 - 2 * (x * x + y * y)]]
    t[:3, 3] = pos
    return t


def back_project(depth: np.ndarray, intrinsics: CameraIntrinsics) -> np.ndarray:
    """Turn a depth image (H, W) into optical-frame points (H, W, 3).

    Pixels without a return keep their non-finite depth, so their points are non-finite too;
    callers mask them with ``np.isfinite(depth) & (depth > 0)``.
    """
    h, w = depth.shape
    u = np.arange(w, dtype=np.float32)
    v = np.arange(h, dtype=np.float32)
    x = (u[None, :] - intrinsics.cx) / intrinsics.fx * depth
    y = (v[:, None] - intrinsics.cy) / intrinsics.fy * depth
    return np.stack([x, y, depth], axis=-1)


def transform_points(t: np.ndarray, points: np.ndarray) -> np.ndarray:
    """Apply a 4x4 transform to points of shape (..., 3)."""
    return points @ t[:3, :3].T + t[:3, 3]
