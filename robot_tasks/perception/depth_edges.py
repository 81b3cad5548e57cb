"""Where the surface jumps in 3-D between neighbouring pixels.

Two same-coloured objects can touch in the picture while metres apart in space -- bins
queued on a conveyor, each hiding the gap to the next behind its own wall. Colour alone
joins them into one blob. Cutting the blob wherever neighbouring pixels are far apart
in 3-D separates them again; the pixels on the cut are then handed back to whichever
neighbouring piece they are close to, so no object loses its outline.
"""
from __future__ import annotations

import numpy as np

# Neighbouring pixels farther apart than this (metres) are on different surfaces. Steep
# surfaces seen at a grazing angle step ~1 cm per pixel at 2 m and 640 px; gaps between
# separate objects are wider than 2 cm.
JUMP_M = 0.02

_OFFSETS = [(-1, -1), (-1, 0), (-1, 1), (0, -1), (0, 1), (1, -1), (1, 0), (1, 1)]


def jump_pixels(points: np.ndarray, depth: np.ndarray, threshold: float = JUMP_M) -> np.ndarray:
    """Pixels on the far side of a 3-D jump to their right or lower neighbour.

    ``points`` (H, W, 3) in any one frame (a distance is the same in all), NaN where there
    is no return; ``depth`` (H, W). Only the farther pixel of a jumping pair is marked, so
    the nearer object keeps its rim.
    """
    h, w = depth.shape
    marks = np.zeros((h, w), dtype=bool)
    limit = threshold * threshold
    with np.errstate(invalid="ignore"):
        step = points[:, 1:] - points[:, :-1]
        right = np.einsum("...i,...i->...", step, step) > limit
        step = points[1:] - points[:-1]
        down = np.einsum("...i,...i->...", step, step) > limit
        right_far = depth[:, 1:] > depth[:, :-1]
        down_far = depth[1:] > depth[:-1]
    marks[:, 1:] |= right & right_far
    marks[:, :-1] |= right & ~right_far
    marks[1:] |= down & down_far
    marks[:-1] |= down & ~down_far
    return marks


def reattach(labels: np.ndarray, cut: np.ndarray, points: np.ndarray,
             threshold: float = JUMP_M) -> np.ndarray:
    """Give each cut pixel the label of its nearest labelled 8-neighbour within ``threshold``
    metres (in 3-D); cut pixels with none stay 0. Returns a new label image."""
    h, w = labels.shape
    rows, cols = np.nonzero(cut)
    if rows.size == 0:
        return labels
    best_dist = np.full(rows.size, np.inf)
    best_label = np.zeros(rows.size, dtype=labels.dtype)
    here = points[rows, cols]
    for dr, dc in _OFFSETS:
        r, c = rows + dr, cols + dc
        ok = (r >= 0) & (r < h) & (c >= 0) & (c < w)
        r, c = np.where(ok, r, 0), np.where(ok, c, 0)
        lab = np.where(ok, labels[r, c], 0)
        with np.errstate(invalid="ignore"):
            dist = np.linalg.norm(points[r, c] - here, axis=-1)
        better = (lab > 0) & (dist < threshold) & (dist < best_dist)
        best_dist[better] = dist[better]
        best_label[better] = lab[better]
    out = labels.copy()
    out[rows, cols] = best_label
    return out
