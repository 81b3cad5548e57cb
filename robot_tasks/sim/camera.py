"""An RGB-D camera with pinhole intrinsics and a known world pose.

Conventions (the ROS optical frame, so perception can back-project directly):
* pixel (u, v): u to the right, v down, integer values at pixel centres;
* optical frame: z forward, x right, y down;
* depth: metres along the optical z axis (not along the ray).

    cam = world.camera("scene")
    frame = cam.capture()                  # rgb (H,W,3) uint8, depth (H,W) float32 m
    K = cam.intrinsics().matrix            # 3x3
    X_cam = depth * K^-1 [u, v, 1]^T       # then world = cam.world_from_optical() @ X_cam
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import pybullet as p

from robot_tasks.sim.backdrop import StaticBackdrop


@dataclass(frozen=True)
class CameraIntrinsics:
    width: int
    height: int
    fx: float
    fy: float
    cx: float
    cy: float

    @property
    def matrix(self) -> np.ndarray:
        return np.array([[self.fx, 0.0, self.cx], [0.0, self.fy, self.cy], [0.0, 0.0, 1.0]])


@dataclass(frozen=True)
class CameraFrame:
    """One capture. `segmentation` holds PyBullet body ids (-1 background) or None."""

    rgb: np.ndarray
    depth: np.ndarray
    segmentation: np.ndarray | None
    time: float


class Camera:
    """A pinhole camera rendered with PyBullet's CPU renderer (ER_TINY_RENDERER), the static
    scene drawn once and reused (robot_tasks/sim/backdrop.py).

    `fov_deg` is the vertical field of view (as PyBullet defines it); pixels are square.
    """

    def __init__(self, world, width: int = 640, height: int = 480, fov_deg: float = 60.0,
                 position=(1.0, 0.0, 1.4), target=(0.5, 0.0, 0.6), up=(0.0, 0.0, 1.0),
                 near: float = 0.05, far: float = 5.0):
        self.world = world
        self.width, self.height = int(width), int(height)
        self.fov_deg = float(fov_deg)
        self.near, self.far = float(near), float(far)
        self._projection = p.computeProjectionMatrixFOV(self.fov_deg, self.width / self.height,
                                                        self.near, self.far)
        self._backdrop = StaticBackdrop(world)
        self.look_at(position, target, up)

    def look_at(self, position, target, up=(0.0, 0.0, 1.0)) -> None:
        """Place the camera at `position` looking at `target`."""
        self.position = np.asarray(position, float)
        self.target = np.asarray(target, float)
        self.up = np.asarray(up, float)
        self._view = p.computeViewMatrix(self.position.tolist(), self.target.tolist(), self.up.tolist())
        forward = self.target - self.position
        z = forward / np.linalg.norm(forward)
        x = np.cross(z, self.up)
        if np.linalg.norm(x) < 1e-9:
            raise ValueError("camera up vector is parallel to the viewing direction")
        x /= np.linalg.norm(x)
        y = np.cross(z, x)
        self._rotation = np.column_stack([x, y, z])     # world_R_optical

    def resized(self, width: int, height: int) -> "Camera":
        """A camera at the same pose and field of view with another resolution."""
        return Camera(self.world, width, height, self.fov_deg, self.position, self.target, self.up,
                      self.near, self.far)

    # --- geometry -------------------------------------------------------------------
    def intrinsics(self) -> CameraIntrinsics:
        fy = (self.height / 2.0) / math.tan(math.radians(self.fov_deg) / 2.0)
        # TinyRenderer samples pixel (u, v) at u = W/2 (1 + x_ndc), v = H/2 (1 - y_ndc) - 1
        # (measured by rendering points at known positions), not at the textbook
        # W/2 - 0.5: using the textbook centre costs 2-3 mm of back-projection error.
        return CameraIntrinsics(self.width, self.height, fy, fy,
                                self.width / 2.0, self.height / 2.0 - 1.0)

    def world_from_optical(self) -> np.ndarray:
        """4x4 transform taking points in the optical frame to world coordinates."""
        T = np.eye(4)
        T[:3, :3] = self._rotation
        T[:3, 3] = self.position
        return T

    def optical_pose(self) -> tuple[tuple, tuple]:
        """(position, quaternion xyzw) of the optical frame in the world (for a TF / param)."""
        return tuple(self.position.tolist()), _quat_from_matrix(self._rotation)

    def project(self, point_world) -> tuple[float, float, float]:
        """World point -> (u, v, depth)."""
        T = self.world_from_optical()
        pc = T[:3, :3].T @ (np.asarray(point_world, float) - T[:3, 3])
        K = self.intrinsics()
        return K.fx * pc[0] / pc[2] + K.cx, K.fy * pc[1] / pc[2] + K.cy, float(pc[2])

    def back_project(self, u: float, v: float, depth: float) -> np.ndarray:
        """(u, v, depth) -> world point."""
        K = self.intrinsics()
        pc = np.array([(u - K.cx) / K.fx * depth, (v - K.cy) / K.fy * depth, depth])
        T = self.world_from_optical()
        return T[:3, :3] @ pc + T[:3, 3]

    # --- rendering ------------------------------------------------------------------
    def capture(self, segmentation: bool = False) -> CameraFrame:
        """Render one frame. Without a segmentation mask (and outside the GUI, where hiding
        bodies would flicker) the static scene comes from a cached backdrop (backdrop.py):
        the same pixels for a fraction of the cost."""
        if segmentation or self.world.gui:
            rgba, zbuf, seg = self._render(segmentation)
        else:
            rgba, zbuf = self._backdrop.compose(lambda: self._render(False)[:2], (self._view, self._projection))
            seg = None
        # OpenGL depth buffer (0..1, non-linear) -> metric depth along the optical axis.
        depth = (self.far * self.near / (self.far - (self.far - self.near) * zbuf)).astype(np.float32)
        depth[zbuf >= 1.0] = np.inf     # nothing rendered: "no return", as REP 118 depth images say
        return CameraFrame(np.ascontiguousarray(rgba[:, :, :3]), depth, seg, self.world.time)

    def _render(self, segmentation: bool):
        """One ER_TINY_RENDERER pass: (rgba (H, W, 4) uint8, depth buffer (H, W) float32, seg or None)."""
        flags = 0 if segmentation else p.ER_NO_SEGMENTATION_MASK
        _, _, rgba, zbuf, seg = p.getCameraImage(
            self.width, self.height, self._view, self._projection, renderer=p.ER_TINY_RENDERER,
            flags=flags, physicsClientId=self.world.client)
        rgba = np.asarray(rgba, dtype=np.uint8).reshape(self.height, self.width, 4)
        zbuf = np.asarray(zbuf, dtype=np.float32).reshape(self.height, self.width)
        seg_img = np.asarray(seg, dtype=np.int32).reshape(self.height, self.width) if segmentation else None
        return rgba, zbuf, seg_img


def _quat_from_matrix(R: np.ndarray) -> tuple:
    """Rotation matrix -> quaternion (x, y, z, w)."""
    tr = R[0, 0] + R[1, 1] + R[2, 2]
    if tr > 0:
        s = math.sqrt(tr + 1.0) * 2
        w, x, y, z = 0.25 * s, (R[2, 1] - R[1, 2]) / s, (R[0, 2] - R[2, 0]) / s, (R[1, 0] - R[0, 1]) / s
    elif R[0, 0] > R[1, 1] and R[0, 0] > R[2, 2]:
        s = math.sqrt(1.0 + R[0, 0] - R[1, 1] - R[2, 2]) * 2
        w, x, y, z = (R[2, 1] - R[1, 2]) / s, 0.25 * s, (R[0, 1] + R[1, 0]) / s, (R[0, 2] + R[2, 0]) / s
    elif R[1, 1] > R[2, 2]:
        s = math.sqrt(1.0 + R[1, 1] - R[0, 0] - R[2, 2]) * 2
        w, x, y, z = (R[0, 2] - R[2, 0]) / s, (R[0, 1] + R[1, 0]) / s, 0.25 * s, (R[1, 2] + R[2, 1]) / s
    else:
        s = math.sqrt(1.0 + R[2, 2] - R[0, 0] - R[1, 1]) * 2
        w, x, y, z = (R[1, 0] - R[0, 1]) / s, (R[0, 2] + R[2, 0]) / s, (R[1, 2] + R[2, 1]) / s, 0.25 * s
    return (float(x), float(y), float(z), float(w))
