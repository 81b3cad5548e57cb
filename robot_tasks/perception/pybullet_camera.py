"""Convert PyBullet's OpenGL-style camera matrices and depth buffer to the optical convention.

PyBullet (``computeViewMatrix`` / ``computeProjectionMatrixFOV`` / ``getCameraImage``)
follows OpenGL:

* Matrices are 16 floats in column-major order.
* The view matrix maps world points into the *eye* frame: x right, y up, the camera looking
  along -z. The optical frame (x right, y down, z forward) is the eye frame turned half a
  turn about x, so ``world_T_optical = inverse(view) @ diag(1, -1, -1, 1)``.
* The projection maps eye points to normalised device coordinates (NDC) in [-1, 1].
  Image row 0 is the top of the picture (NDC y = +1).
* Where a pixel samples the scene depends on the renderer. ``ER_TINY_RENDERER`` (what the
  sim uses, and the only renderer in DIRECT mode) samples column u at NDC x = 2u / W - 1
  and row v at NDC y = 1 - 2(v + 1) / H. That is half a pixel off the textbook OpenGL
  pixel-centre rule in both axes; measured here by rendering a 5 cm cube at 40 random
  places: the textbook rule left a 0.47-pixel bias per axis, this rule left < 0.05 pixel.
  OpenGL proper (``ER_BULLET_HARDWARE_OPENGL``) samples pixel centres, (2u + 1) / W - 1;
  pass ``tiny_renderer=False`` for it (not measured here: no GPU context in DIRECT mode).
* The depth buffer holds non-linear values in [0, 1]; 1 is the far plane (nothing hit).

Only plain numpy is used: no pybullet import is needed to convert.
"""
from __future__ import annotations

import numpy as np

from robot_tasks.perception.camera import CameraIntrinsics
from robot_tasks.perception.errors import PerceptionInputError

EYE_T_OPTICAL = np.diag([1.0, -1.0, -1.0, 1.0])


def _gl_matrix(values, name: str) -> np.ndarray:
    m = np.asarray(values, dtype=float).reshape(-1)
    if m.size != 16 or not np.all(np.isfinite(m)):
        raise PerceptionInputError(f"{name}: expected 16 finite floats (OpenGL column-major)")
    return m.reshape(4, 4).T   # column-major list -> ordinary row-major matrix


def intrinsics_from_pybullet_projection(projection_matrix, width: int, height: int,
                                        tiny_renderer: bool = True) -> CameraIntrinsics:
    """Pinhole intrinsics of an image of ``width`` x ``height`` rendered with this projection."""
    p = _gl_matrix(projection_matrix, "projection_matrix")
    if p[3, 2] != -1.0 or p[0, 0] <= 0 or p[1, 1] <= 0:
        raise PerceptionInputError("projection_matrix: not a perspective projection")
    # With x_ndc = p00 * x/z - p02 and y_ndc = -p11 * y/z - p12 (z = optical depth,
    # optical y points down), the sampling rules in the module docstring give:
    #   tiny:   u = W/2 * (x_ndc + 1),        v = H/2 * (1 - y_ndc) - 1
    #   OpenGL: u = W/2 * (x_ndc + 1) - 0.5,  v = H/2 * (1 - y_ndc) - 0.5
    fx = 0.5 * width * p[0, 0]
    fy = 0.5 * height * p[1, 1]
    cx = 0.5 * width * (1.0 - p[0, 2]) - (0.0 if tiny_renderer else 0.5)
    cy = 0.5 * height * (1.0 + p[1, 2]) - (1.0 if tiny_renderer else 0.5)
    return CameraIntrinsics(fx=fx, fy=fy, cx=cx, cy=cy, width=int(width), height=int(height))


def near_far_from_pybullet_projection(projection_matrix) -> tuple[float, float]:
    """The near and far clip distances the projection was built with."""
    p = _gl_matrix(projection_matrix, "projection_matrix")
    a, b = p[2, 2], p[2, 3]     # a = -(f+n)/(f-n), b = -2fn/(f-n)
    return float(b / (a - 1.0)), float(b / (a + 1.0))


def pose_from_pybullet_view(view_matrix) -> np.ndarray:
    """world_T_camera (optical frame) from a PyBullet view matrix."""
    v = _gl_matrix(view_matrix, "view_matrix")
    return np.linalg.inv(v) @ EYE_T_OPTICAL


def view_from_pose(world_T_camera) -> list[float]:
    """The inverse of :func:`pose_from_pybullet_view`: a PyBullet view matrix (16 floats)."""
    t = np.asarray(world_T_camera, dtype=float)
    view = EYE_T_OPTICAL @ np.linalg.inv(t)
    return view.T.reshape(-1).tolist()


def depth_from_pybullet_buffer(depth_buffer, near: float, far: float) -> np.ndarray:
    """Metric optical depth (float32, metres) from PyBullet's [0, 1] depth buffer.

    Pixels at the far plane (nothing rendered there) become ``inf`` = no return.
    """
    if not (0 < near < far):
        raise PerceptionInputError(f"near/far: need 0 < near < far, got {near}, {far}")
    z = np.asarray(depth_buffer, dtype=np.float64)
    depth = far * near / (far - (far - near) * z)
    depth[~np.isfinite(z) | (z >= 1.0 - 1e-7)] = np.inf
    return depth.astype(np.float32)


def camera_from_pybullet(view_matrix, projection_matrix, width: int, height: int,
                         tiny_renderer: bool = True) -> tuple[CameraIntrinsics, np.ndarray]:
    """(intrinsics, world_T_camera) in one call, for the usual getCameraImage arguments."""
    return (intrinsics_from_pybullet_projection(projection_matrix, width, height, tiny_renderer),
            pose_from_pybullet_view(view_matrix))
