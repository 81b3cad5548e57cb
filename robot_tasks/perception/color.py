"""RGB -> HSV in numpy, and colour classes defined as hue bands.

Hue is in degrees [0, 360), saturation and value in [0, 1]. Shading from the renderer (or
real light) scales all three channels of a surface together, which leaves hue and
saturation nearly unchanged; that is why objects are segmented by hue band plus a floor
on saturation and value rather than by RGB distance.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np


def rgb_to_hsv(rgb: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Hue (degrees), saturation and value (0..1) of a uint8 (..., 3) image, as float32."""
    # Channel-wise maximum/minimum: reducing over a last axis of length 3 is several
    # times slower in numpy than two elementwise np.maximum calls.
    r = rgb[..., 0].astype(np.float32)
    g = rgb[..., 1].astype(np.float32)
    b = rgb[..., 2].astype(np.float32)
    vmax = np.maximum(np.maximum(r, g), b)
    chroma = vmax - np.minimum(np.minimum(r, g), b)
    safe = np.where(chroma > 0, chroma, np.float32(1.0))
    # Which channel is the maximum decides the 60-degree sector of the hue.
    hue = np.where(vmax == r, ((g - b) / safe) % 6.0,
                   np.where(vmax == g, (b - r) / safe + 2.0, (r - g) / safe + 4.0))
    hue = np.where(chroma > 0, hue * np.float32(60.0), np.float32(0.0)).astype(np.float32)
    sat = (chroma / np.where(vmax > 0, vmax, np.float32(1.0))).astype(np.float32)
    return hue, sat, (vmax / np.float32(255.0)).astype(np.float32)


@dataclass(frozen=True)
class ColorClass:
    """A named colour: one or more hue intervals [lo, hi) in degrees, and S/V floors.

    An interval with lo > hi wraps through 0 (red is (340, 15)).
    """

    name: str
    hue_ranges: tuple[tuple[float, float], ...]
    min_saturation: float = 0.5
    min_value: float = 0.12
    max_saturation: float = 1.0

    def mask(self, hue: np.ndarray, sat: np.ndarray, val: np.ndarray) -> np.ndarray:
        """Boolean image of the pixels that have this colour."""
        in_band = np.zeros(hue.shape, dtype=bool)
        for lo, hi in self.hue_ranges:
            if lo <= hi:
                in_band |= (hue >= lo) & (hue < hi)
            else:
                in_band |= (hue >= lo) | (hue < hi)
        return in_band & (sat >= self.min_saturation) & (sat <= self.max_saturation) \
            & (val >= self.min_value)
