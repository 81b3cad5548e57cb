"""RGB-D frame in, labelled world-frame object poses out.

    detector = Detector()                                  # default catalogue
    detections = detector.detect(rgb, depth, intrinsics, world_T_camera)

Pipeline, per frame:

1. Check the inputs (shapes, dtypes, intrinsics matching the image, a rigid pose).
2. The world height of every pixel with a depth return (one multiply-add per pixel: a
   pixel's world z is its depth times the z of its viewing ray, plus the camera's z).
3. Find the support height (the table top) unless it is given; pixels less than
   ``min_height_above_support`` above it are background whatever their colour.
4. Only the pixels above the support go on: their HSV colour (OpenCV), then for each
   colour in the catalogue: mask -> inside the box around that colour's pixels,
   back-project to 3-D, cut where the surface jumps in 3-D (two bins touching in the
   image) -> connected blobs (``cv2.connectedComponents``) -> for each blob large
   enough, every catalogue entry of that colour tries to fit it (cube, banana, bowl, bin
   fitters); the most confident fit above its entry's threshold becomes a Detection.
   Blobs that fit nothing and lie close together are tried once more as one object.
5. Sort by label, then position, so the same scene gives the same list.

Everything per pixel of the whole image is a vectorised numpy or OpenCV pass; the 3-D
work (back-projection, depth jumps, blob outlines) is done only in the boxes where a
colour of the catalogue shows, which on a table scene is a few percent of the image.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Sequence

import cv2
import numpy as np

from robot_tasks.perception.camera import CameraIntrinsics, validate_pose
from robot_tasks.perception.catalog import DEFAULT_CATALOG, ObjectSpec
from robot_tasks.perception.color import ColorClass, rgb_to_hsv
from robot_tasks.perception.depth_edges import jump_pixels, reattach
from robot_tasks.perception.detection import Detection
from robot_tasks.perception.errors import PerceptionInputError
from robot_tasks.perception.fit_banana import fit_banana
from robot_tasks.perception.fit_bin import fit_bin
from robot_tasks.perception.fit_bowl import fit_bowl
from robot_tasks.perception.fit_cube import fit_cube
from robot_tasks.perception.fit_round import fit_round
from robot_tasks.perception.segment import (
    EDGE_REACH_PX,
    Segment,
    gap_between,
    hidden_edge_mask,
    merge_segments,
    nested_groups,
)
from robot_tasks.perception.support import estimate_support_height

Fitter = Callable[[ObjectSpec, Segment, "float | None"], "Detection | None"]
FITTERS: dict[str, Fitter] = {"cube": fit_cube, "banana": fit_banana, "bowl": fit_bowl,
                              "bin": fit_bin, "round": fit_round}


@dataclass(frozen=True)
class DetectorConfig:
    """Tuning knobs; the defaults suit 320x240 to 640x480 cameras 0.5-2 m from the objects.

    min_pixels                 smaller blobs are ignored (noise, slivers)
    min_height_above_support   metres; lower pixels are table, not object
    max_depth                  metres; farther returns are ignored
    estimate_support           find the table height per frame when not given
    jump_threshold             metres between neighbouring pixels that separates two
                               surfaces (splits touching same-coloured objects)
    merge_gap                  metres; pieces of one colour that fit nothing alone and
                               are this close are tried together (an occluded object)
    """

    min_pixels: int = 20
    min_height_above_support: float = 0.008
    max_depth: float = 10.0
    estimate_support: bool = True
    jump_threshold: float = 0.02
    merge_gap: float = 0.05

    def __post_init__(self) -> None:
        if self.min_pixels < 1:
            raise ValueError(f"DetectorConfig.min_pixels must be >= 1, got {self.min_pixels}")
        for name in ("min_height_above_support", "max_depth", "jump_threshold", "merge_gap"):
            value = getattr(self, name)
            if not (np.isfinite(value) and value >= 0):
                raise ValueError(f"DetectorConfig.{name} must be a finite, non-negative number, got {value}")
        if self.max_depth == 0 or self.jump_threshold == 0:
            raise ValueError("DetectorConfig.max_depth and jump_threshold must be positive")


@dataclass(frozen=True)
class FrameInfo:
    """What the last frame looked like, for logs and debugging."""

    support_height: float | None
    valid_pixels: int
    blobs: int


def check_frame(rgb, depth, intrinsics: CameraIntrinsics, world_T_camera) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Validate one frame and return (rgb uint8 HxWx3, depth float32 HxW, pose 4x4)."""
    if not isinstance(intrinsics, CameraIntrinsics):
        raise PerceptionInputError(
            f"intrinsics: expected a CameraIntrinsics, got {type(intrinsics).__name__}")
    rgb = np.asarray(rgb)
    if rgb.ndim != 3 or rgb.shape[2] not in (3, 4):
        raise PerceptionInputError(f"rgb: expected shape (H, W, 3) or (H, W, 4), got {rgb.shape}")
    if rgb.dtype != np.uint8:
        raise PerceptionInputError(f"rgb: expected dtype uint8, got {rgb.dtype}")
    depth = np.asarray(depth)
    if depth.shape != rgb.shape[:2]:
        raise PerceptionInputError(
            f"depth: expected shape {rgb.shape[:2]} to match rgb, got {depth.shape}")
    if not np.issubdtype(depth.dtype, np.floating):
        raise PerceptionInputError(
            f"depth: expected float metres (float32), got {depth.dtype}; convert 16UC1 "
            "millimetres with depth.astype(np.float32) / 1000")
    if (intrinsics.height, intrinsics.width) != depth.shape:
        raise PerceptionInputError(
            f"intrinsics: describe a {intrinsics.width}x{intrinsics.height} image but the frame "
            f"is {depth.shape[1]}x{depth.shape[0]}")
    return rgb[..., :3], depth.astype(np.float32, copy=False), validate_pose(world_T_camera)


class Detector:
    """Finds the catalogue's objects in RGB-D frames.

    Nothing carries over from one frame to the next except ``last_frame`` (a summary for
    logs), so one Detector can serve every frame; give each thread its own if several
    threads detect at once and read ``last_frame``.
    """

    def __init__(self, catalog: Sequence[ObjectSpec] = DEFAULT_CATALOG,
                 config: DetectorConfig = DetectorConfig()):
        self.catalog = tuple(catalog)
        self.config = config
        self.last_frame: FrameInfo | None = None
        # Group the entries by colour, keeping catalogue order, so each colour is segmented once.
        self._by_color: dict[ColorClass, list[ObjectSpec]] = {}
        for spec in self.catalog:
            if spec.kind not in FITTERS:
                raise ValueError(f"ObjectSpec {spec.label}: no fitter for kind {spec.kind!r}")
            self._by_color.setdefault(spec.color, []).append(spec)

    def detect(self, rgb, depth, intrinsics: CameraIntrinsics, world_T_camera,
               support_height: float | None = None) -> list[Detection]:
        """All objects seen in this frame, sorted by label then position.

        ``depth`` is metres along the optical axis; 0, NaN or inf mean no return.
        ``support_height`` is the world z of the table top if known, else it is estimated.
        Raises PerceptionInputError for malformed input; a frame with no depth returns [].
        """
        rgb, depth, pose = check_frame(rgb, depth, intrinsics, world_T_camera)
        valid = np.isfinite(depth) & (depth > 0) & (depth < self.config.max_depth)
        if not valid.any():
            self.last_frame = FrameInfo(None, 0, 0)
            return []
        clean_depth = np.where(valid, depth, np.float32(np.nan))
        h, w = depth.shape
        # world z = depth * (z of the viewing ray through the pixel, per unit depth) + camera z
        rot, origin = pose[:3, :3], pose[:3, 3]
        ray_x = (np.arange(w, dtype=np.float32) - np.float32(intrinsics.cx)) / np.float32(intrinsics.fx)
        ray_y = (np.arange(h, dtype=np.float32) - np.float32(intrinsics.cy)) / np.float32(intrinsics.fy)
        ray_z = (np.float32(rot[2, 0]) * ray_x[None, :] + np.float32(rot[2, 1]) * ray_y[:, None]
                 + np.float32(rot[2, 2]))
        z = clean_depth * ray_z + np.float32(origin[2])
        if support_height is None and self.config.estimate_support:
            support_height = estimate_support_height(z)      # NaN where no return
        candidates = valid
        if support_height is not None:
            with np.errstate(invalid="ignore"):
                candidates = valid & (z > support_height + self.config.min_height_above_support)
        frame = _Frame(clean_depth, intrinsics, pose, ray_x, ray_y)
        where = np.flatnonzero(candidates)
        hsv = rgb_to_hsv(rgb.reshape(-1, 3)[where])
        detections: list[Detection] = []
        blob_count = 0
        for specs in self._by_color.values():
            pixels = where[specs[0].color.mask(hsv)]
            leftovers = []
            for seg in self._segments(pixels, frame, specs[0].color.name):
                blob_count += 1
                best = _best_fit(specs, seg, support_height)
                if best is not None:
                    detections.append(best)
                else:
                    leftovers.append(seg)
            # An open bin seen from above: the depth jump from its rim down to its floor
            # cuts it in two, and neither piece fits alone; the floor lies inside the rim.
            for group in nested_groups(leftovers):
                best = _best_fit(specs, merge_segments(group), support_height)
                if best is not None:
                    detections.append(best)
                    leftovers = [s for s in leftovers if not any(s is g for g in group)]
            # An object cut in two by something lying across it (a banana over a bowl's rim)
            # gives pieces that fit nothing alone: try nearby pieces together.
            for group in _nearby_groups(leftovers, self.config.merge_gap):
                if len(group) > 1:
                    best = _best_fit(specs, merge_segments(group), support_height)
                    if best is not None:
                        detections.append(best)
        self.last_frame = FrameInfo(support_height, int(valid.sum()), blob_count)
        return sorted(detections, key=Detection.sort_key)

    def _segments(self, pixels: np.ndarray, frame: "_Frame", color: str):
        """Yield one Segment per connected blob of the ``pixels`` (flat image indices of one
        colour) with at least min_pixels pixels.

        Blobs are cut along 3-D jumps (see depth_edges.py), then the cut pixels rejoin
        the piece they are near in 3-D. All of it happens in the box around the pixels,
        grown by enough that every neighbour a step looks at is inside it.
        """
        if pixels.size < self.config.min_pixels:
            return
        h, w = frame.depth.shape
        rows, cols = np.divmod(pixels, w)
        m = EDGE_REACH_PX + 1
        r0, r1 = max(int(rows.min()) - m, 0), min(int(rows.max()) + m + 1, h)
        c0, c1 = max(int(cols.min()) - m, 0), min(int(cols.max()) + m + 1, w)
        mask = np.zeros((r1 - r0, c1 - c0), dtype=bool)
        mask[rows - r0, cols - c0] = True
        depth = frame.depth[r0:r1, c0:c1]
        points = frame.camera_points(r0, r1, c0, c1)   # jumps are distances: any frame will do
        jumps = jump_pixels(points, depth, self.config.jump_threshold)
        # 4-connectivity: the cut only checks right and lower neighbours, so a diagonal
        # step could leak across it.
        count, labels, stats, _ = cv2.connectedComponentsWithStats((mask & ~jumps).view(np.uint8),
                                                                   connectivity=4, ltype=cv2.CV_32S)
        count -= 1                                       # label 0 is the background
        if count == 0:
            return
        cut = mask & jumps
        if cut.any():
            labels = reattach(labels, cut, points, self.config.jump_threshold)
        r = EDGE_REACH_PX
        camera_origin, optical_axis = frame.pose[:3, 3], frame.pose[:3, 2]
        for k in range(1, count + 1):
            # A reattached pixel is an 8-neighbour of its piece: one pixel round the box holds it.
            x, y, bw, bh, area = stats[k]
            if area + 2 * (bw + bh) + 4 < self.config.min_pixels:
                continue
            y0, x0 = max(int(y) - 1, 0), max(int(x) - 1, 0)
            prow, pcol = np.nonzero(labels[y0:y + bh + 1, x0:x + bw + 1] == k)
            if prow.size < self.config.min_pixels:
                continue
            prow += y0
            pcol += x0
            b0, b1 = max(int(prow.min()) - r, 0), int(prow.max()) + r + 1
            a0, a1 = max(int(pcol.min()) - r, 0), int(pcol.max()) + r + 1
            blob = labels[b0:b1, a0:a1] == k
            edges = hidden_edge_mask(blob, depth[b0:b1, a0:a1], r0 + b0, c0 + a0, (h, w))
            pts = frame.world(points[prow, pcol])
            view = pts.mean(axis=0) - camera_origin
            view /= np.linalg.norm(view)
            yield Segment(color=color, rows=prow + r0, cols=pcol + c0, points=pts,
                          depth=depth[prow, pcol].astype(np.float64),
                          at_hidden_edge=edges[prow - b0, pcol - a0],
                          inv_focal=1.0 / frame.intrinsics.fx,
                          view_dir=view, axis_cos=float(view @ optical_axis))


@dataclass(frozen=True)
class _Frame:
    """One frame's depth (NaN = no return), camera and the per-column / per-row ray slopes."""

    depth: np.ndarray
    intrinsics: CameraIntrinsics
    pose: np.ndarray
    ray_x: np.ndarray
    ray_y: np.ndarray

    def camera_points(self, r0: int, r1: int, c0: int, c1: int) -> np.ndarray:
        """Optical-frame points (rows, cols, 3) of the box [r0, r1) x [c0, c1), float32."""
        d = self.depth[r0:r1, c0:c1]
        return np.stack([d * self.ray_x[None, c0:c1], d * self.ray_y[r0:r1, None], d], axis=-1)

    def world(self, camera_points: np.ndarray) -> np.ndarray:
        """World points (N, 3), float64, of optical-frame points (N, 3)."""
        return camera_points.astype(np.float64) @ self.pose[:3, :3].T + self.pose[:3, 3]


def _best_fit(specs: Sequence[ObjectSpec], seg: Segment,
              support_height: float | None) -> Detection | None:
    """The most confident Detection any of ``specs`` makes of ``seg``, or None."""
    best = None
    for spec in specs:
        found = FITTERS[spec.kind](spec, seg, support_height)
        if found is not None and (best is None or found.confidence > best.confidence):
            best = found
    return best


def _nearby_groups(segments: list[Segment], gap: float) -> list[list[Segment]]:
    """Group blobs that come within ``gap`` metres of each other (transitively)."""
    parent = list(range(len(segments)))

    def root(i: int) -> int:
        while parent[i] != i:
            i = parent[i]
        return i

    for i in range(len(segments)):
        for j in range(i + 1, len(segments)):
            if root(i) != root(j) and gap_between(segments[i], segments[j]) < gap:
                parent[root(j)] = root(i)
    groups: dict[int, list[Segment]] = {}
    for i, seg in enumerate(segments):
        groups.setdefault(root(i), []).append(seg)
    return list(groups.values())


def detect_objects(rgb, depth, intrinsics: CameraIntrinsics, world_T_camera,
                   catalog: Sequence[ObjectSpec] = DEFAULT_CATALOG,
                   support_height: float | None = None) -> list[Detection]:
    """One-shot convenience wrapper around ``Detector(catalog).detect(...)``."""
    return Detector(catalog).detect(rgb, depth, intrinsics, world_T_camera, support_height)
