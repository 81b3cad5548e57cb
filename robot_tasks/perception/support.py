"""The height of the surface objects stand on (the table top), estimated from the points.

Our cameras look down on a horizontal table, so the support is the most common height
among the points: a histogram over world z finds it without RANSAC, then the median of
the points near the peak refines it. It is only trusted when a fair share of the image
lies on it.
"""
from __future__ import annotations

import numpy as np

BIN_M = 0.005
MIN_SHARE = 0.10          # the plane must hold at least this share of the valid points


def estimate_support_height(z: np.ndarray, stride: int = 3) -> float | None:
    """Most common height of the points (world z, any shape; NaN = no point), or None if
    none dominates.

    ``stride`` subsamples the points for speed (every stride-th, before the NaNs are
    dropped); the answer is within a millimetre.
    """
    z = np.asarray(z).reshape(-1)[::stride].astype(np.float64)
    z = z[np.isfinite(z)]
    if z.size < 50:
        return None
    lo, hi = float(z.min()), float(z.max())
    if hi - lo < BIN_M:
        return float(np.median(z))
    # A histogram of BIN_M-wide bins from lo: each point's bin is its offset over the width.
    bins = int(np.ceil((hi - lo) / BIN_M))
    width = (hi + 1e-9 - lo) / bins
    index = np.minimum(((z - lo) / width).astype(np.intp), bins - 1)
    peak = int(np.argmax(np.bincount(index, minlength=bins)))
    centre = lo + (peak + 0.5) * width
    near = z[np.abs(z - centre) <= BIN_M]
    if near.size < MIN_SHARE * z.size:
        return None
    return float(np.median(near))
