"""sensor_msgs/Image -> numpy arrays in the form robot_tasks.perception expects.

    rgb = rgb_from_image(msg)       # (H, W, 3) uint8 from rgb8, bgr8, rgba8 or bgra8
    depth = depth_from_image(msg)   # (H, W) float32 metres from 32FC1 (m) or 16UC1 (mm)

Rows may be padded (``step`` > width * bytes per pixel) and multi-byte pixels may be
big-endian (``is_bigendian``); both are honoured. Anything else raises
:class:`ImageConversionError` with a message that says what was received and what is
supported, so a misconfigured camera driver is obvious from the log.
"""
from __future__ import annotations

import numpy as np

from robot_tasks.ros.errors import RosError

# encoding -> (channels, channel order to reach RGB)
COLOR_ENCODINGS = {
    "rgb8": (3, (0, 1, 2)),
    "bgr8": (3, (2, 1, 0)),
    "rgba8": (4, (0, 1, 2)),
    "bgra8": (4, (2, 1, 0)),
}
# encoding -> (numpy dtype without byte order, scale to metres)
DEPTH_ENCODINGS = {
    "32FC1": ("f4", 1.0),
    "16UC1": ("u2", 0.001),   # millimetres, the usual RealSense / OpenNI depth; 0 = no return
}


class ImageConversionError(RosError, ValueError):
    """An Image message cannot be turned into the array perception needs."""


def _pixel_rows(msg, bytes_per_pixel: int, what: str) -> np.ndarray:
    """The image bytes as a (H, W * bytes_per_pixel) uint8 view, padding dropped."""
    h, w, step = int(msg.height), int(msg.width), int(msg.step)
    if h <= 0 or w <= 0:
        raise ImageConversionError(f"{what}: empty image ({w}x{h})")
    row_bytes = w * bytes_per_pixel
    if step < row_bytes:
        raise ImageConversionError(
            f"{what}: step {step} is smaller than width {w} x {bytes_per_pixel} bytes per pixel")
    data = np.frombuffer(msg.data, dtype=np.uint8)
    if data.size < step * h:
        raise ImageConversionError(
            f"{what}: data holds {data.size} bytes, expected step {step} x height {h} = {step * h}")
    return data[:step * h].reshape(h, step)[:, :row_bytes]


def rgb_from_image(msg, what: str = "rgb image") -> np.ndarray:
    """A colour Image -> contiguous (H, W, 3) uint8 RGB array (a copy: safe to keep)."""
    encoding = msg.encoding.lower()
    if encoding not in COLOR_ENCODINGS:
        raise ImageConversionError(
            f"{what}: unsupported encoding {msg.encoding!r}; supported: {', '.join(COLOR_ENCODINGS)}")
    channels, order = COLOR_ENCODINGS[encoding]
    rows = _pixel_rows(msg, channels, what)
    pixels = rows.reshape(int(msg.height), int(msg.width), channels)
    return np.ascontiguousarray(pixels[..., list(order)])


def depth_from_image(msg, what: str = "depth image") -> np.ndarray:
    """A depth Image -> (H, W) float32 metres along the optical axis (a copy).

    0, NaN and inf stay as they are: perception treats them all as "no return".
    """
    encoding = msg.encoding.upper()
    if encoding not in DEPTH_ENCODINGS:
        raise ImageConversionError(
            f"{what}: unsupported encoding {msg.encoding!r}; supported: {', '.join(DEPTH_ENCODINGS)} "
            "(32FC1 metres or 16UC1 millimetres)")
    kind, scale = DEPTH_ENCODINGS[encoding]
    dtype = np.dtype((">" if msg.is_bigendian else "<") + kind)
    rows = _pixel_rows(msg, dtype.itemsize, what)
    depth = np.ascontiguousarray(rows).view(dtype).reshape(int(msg.height), int(msg.width))
    out = depth.astype(np.float32)
    if scale != 1.0:
        out *= np.float32(scale)
    return out
