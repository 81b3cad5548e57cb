"""A Segment is one connected blob of same-coloured pixels with its 3-D points.

The fitters (cube, bin, bowl, banana) see only Segments, never whole images, so each
fitter is a small pure function of the points it is handed.
"""
from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from robot_tasks.perception.detection import PixelBox

# A neighbour this much nearer the camera than the pixel hides the object behind it.
OCCLUDER_MARGIN_M = 0.01
# How far (pixels) around a pixel to look for the image border or an occluder.
EDGE_REACH_PX = 2


@dataclass
class Segment:
    """Pixels of one blob, in matching order.

    rows, cols   image coordinates (N,)
    points       world xyz (N, 3) of those pixels
    depth        optical depth (N,) in metres
    at_hidden_edge  (N,) True where the blob's outline there is not the object's own edge:
                 the pixel is within EDGE_REACH_PX of the image border or of a pixel outside
                 the blob that is nearer the camera (something in front).
    inv_focal    1 / fx: a pixel at depth d covers about d * inv_focal metres
    view_dir     unit world vector from the camera to the blob's centroid
    axis_cos     cosine between view_dir and the optical axis (1 at the image centre)
    """

    color: str
    rows: np.ndarray
    cols: np.ndarray
    points: np.ndarray
    depth: np.ndarray
    at_hidden_edge: np.ndarray
    inv_focal: float
    view_dir: np.ndarray
    axis_cos: float

    @property
    def pixel_count(self) -> int:
        return int(self.rows.size)

    @property
    def bbox(self) -> PixelBox:
        return PixelBox(int(self.cols.min()), int(self.rows.min()),
                        int(self.cols.max()), int(self.rows.max()))

    def footprint(self, keep: np.ndarray | None = None) -> float:
        """Median size of one pixel on the surface (metres), over ``keep`` or all pixels."""
        d = self.depth if keep is None else self.depth[keep]
        if not d.size:
            return 0.0
        # the median by a partial sort (np.median's own overhead dominates on small blobs)
        k = (d.size - 1) // 2
        part = np.partition(d, (k, d.size // 2))
        return float(part[k] + part[d.size // 2]) / 2.0 * self.inv_focal


def hidden_edge_mask(blob: np.ndarray, depth: np.ndarray, row0: int, col0: int,
                     image_shape: tuple[int, int]) -> np.ndarray:
    """For a blob given as a boolean crop at (row0, col0) of the full image, flag its pixels
    that lie next to the image border or next to a nearer surface outside the blob.

    ``depth`` is the matching crop of the depth image (non-finite = no return); the crop
    must reach EDGE_REACH_PX beyond the blob wherever the image does.

    "Is anything outside the blob, within EDGE_REACH_PX, nearer than me?" is a question
    about the smallest depth in a window around each pixel: a grey-scale erosion (the
    minimum filter of mathematical morphology) of the depth image with the blob's own
    pixels set to infinity, compared with the pixel's own depth.
    """
    r = EDGE_REACH_PX
    others = np.where(blob | ~(np.isfinite(depth) & (depth > 0)), np.inf, depth).astype(np.float32)
    nearest = cv2.erode(others, np.ones((2 * r + 1, 2 * r + 1), np.uint8),
                        borderType=cv2.BORDER_CONSTANT, borderValue=np.inf)
    flags = blob & (nearest < depth - OCCLUDER_MARGIN_M)
    # Pixels whose window leaves the image: the image border cuts the object there.
    full_h, full_w = image_shape
    h, w = blob.shape
    rows = np.arange(row0, row0 + h)
    cols = np.arange(col0, col0 + w)
    near_border = ((rows < r) | (rows >= full_h - r))[:, None] | ((cols < r) | (cols >= full_w - r))[None, :]
    return flags | (blob & near_border)


def merge_segments(parts: list[Segment]) -> Segment:
    """One Segment from several blobs of the same colour (pieces of one occluded object)."""
    counts = np.array([s.pixel_count for s in parts], dtype=float)
    view = sum(c * s.view_dir for c, s in zip(counts, parts))
    view = view / np.linalg.norm(view)
    return Segment(
        color=parts[0].color,
        rows=np.concatenate([s.rows for s in parts]),
        cols=np.concatenate([s.cols for s in parts]),
        points=np.concatenate([s.points for s in parts]),
        depth=np.concatenate([s.depth for s in parts]),
        at_hidden_edge=np.concatenate([s.at_hidden_edge for s in parts]),
        inv_focal=parts[0].inv_focal,
        view_dir=view,
        axis_cos=float(np.average([s.axis_cos for s in parts], weights=counts)),
    )


def lies_within(inner: Segment, outer: Segment, margin: float = 0.01, share: float = 0.9) -> bool:
    """Seen from above, ``inner`` lies inside ``outer``'s outline: at least ``share`` of its
    points fall in outer's xy bounding box (grown by ``margin`` metres), and that box is
    the larger one. An open bin's floor and its rim are such a pair: the depth jump
    between them cuts one blob in two."""
    lo, hi = outer.points[:, :2].min(axis=0) - margin, outer.points[:, :2].max(axis=0) + margin
    xy = inner.points[:, :2]
    inside = np.all((xy >= lo) & (xy <= hi), axis=1)
    outer_area = float(np.prod(hi - lo))
    inner_area = float(np.prod(xy.max(axis=0) - xy.min(axis=0)))
    return bool(inside.mean() >= share) and outer_area > inner_area


def nested_groups(segments: list[Segment]) -> list[list[Segment]]:
    """Groups [outer, inner, ...]: every segment that lies within another (see
    lies_within) joins the smallest one around it. Segments in no pair are left out."""
    def area(s: Segment) -> float:
        span = s.points[:, :2].max(axis=0) - s.points[:, :2].min(axis=0)
        return float(span[0] * span[1])

    inner_of: dict[int, list[int]] = {}
    for i, seg in enumerate(segments):
        around = [j for j, other in enumerate(segments) if j != i and lies_within(seg, other)]
        if around:
            inner_of.setdefault(min(around, key=lambda j: area(segments[j])), []).append(i)
    nested = {i for inners in inner_of.values() for i in inners}
    return [[segments[o]] + [segments[i] for i in inners]
            for o, inners in inner_of.items() if o not in nested]


def gap_between(a: Segment, b: Segment, samples: int = 300) -> float:
    """Smallest 3-D distance between two blobs (on up to ``samples`` points of each)."""
    pa = a.points[:: max(1, a.pixel_count // samples)]
    pb = b.points[:: max(1, b.pixel_count // samples)]
    return float(np.sqrt(((pa[:, None, :] - pb[None, :, :]) ** 2).sum(axis=-1).min()))
