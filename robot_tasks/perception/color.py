"""RGB -> HSV, and colour classes defined as hue bands.

Hue is in degrees [0, 360), saturation and value in [0, 1]. Shading from the renderer (or
real light) scales all three channels of a surface together, which leaves hue and
saturation nearly unchanged; that is why objects are segmented by hue band plus a floor
on saturation and value rather than by RGB distance.

OpenCV does both steps: ``cv2.cvtColor(..., COLOR_RGB2HSV)`` on a float image scaled to
[0, 1] gives exactly these units (hue in degrees, not the 0..180 of 8-bit images, whose
2-degree steps would move the band edges), and ``cv2.inRange`` tests all three channels
against a box of bounds in one pass (OpenCV docs, "Color conversions": RGB <-> HSV).
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

import cv2
import numpy as np


def rgb_to_hsv(rgb: np.ndarray) -> np.ndarray:
    """Hue (degrees), saturation and value (0..1) of uint8 RGB pixels (..., 3), as float32 (..., 3)."""
    rgb = np.asarray(rgb)
    shape = rgb.shape
    if rgb.size == 0:
        return np.zeros(shape, dtype=np.float32)
    image = rgb.reshape(-1, 1, 3) if rgb.ndim != 3 else rgb
    hsv = cv2.cvtColor(image.astype(np.float32) * np.float32(1.0 / 255.0), cv2.COLOR_RGB2HSV)
    return hsv.reshape(shape)


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

    @cached_property
    def _boxes(self) -> list[tuple[np.ndarray, np.ndarray]]:
        """Inclusive (low, high) HSV bounds for cv2.inRange, one per unwrapped hue interval.
        The hue's open upper end becomes the largest float32 below it."""
        def below(x: float) -> float:
            return float(np.nextafter(np.float32(x), np.float32(-np.inf)))

        hue_spans = []
        for lo, hi in self.hue_ranges:
            hue_spans += [(lo, below(hi))] if lo <= hi else [(lo, 360.0), (0.0, below(hi))]
        return [(np.array([lo, self.min_saturation, self.min_value], dtype=np.float32),
                 np.array([hi, self.max_saturation, np.inf], dtype=np.float32)) for lo, hi in hue_spans]

    def mask(self, hsv: np.ndarray) -> np.ndarray:
        """Boolean array (hsv.shape[:-1]) of the pixels that have this colour."""
        hsv = np.asarray(hsv, dtype=np.float32)
        shape = hsv.shape[:-1]
        if hsv.size == 0:
            return np.zeros(shape, dtype=bool)
        image = hsv.reshape(-1, 1, 3) if hsv.ndim != 3 else hsv
        hit = None
        for lo, hi in self._boxes:
            inside = cv2.inRange(image, lo, hi)
            hit = inside if hit is None else cv2.bitwise_or(hit, inside)
        return hit.reshape(shape).astype(bool)
