"""A grid of captioned camera frames, one per finished phase (ROS-free, Pillow)."""
from __future__ import annotations

from pathlib import Path

import numpy as np

CAPTION_H = 16


def image_from_message_fields(width: int, height: int, step: int, encoding: str, data: bytes) -> np.ndarray:
    """sensor_msgs/Image fields -> HxWx3 uint8 RGB (rgb8, bgr8, rgba8, bgra8)."""
    channels = {"rgb8": 3, "bgr8": 3, "rgba8": 4, "bgra8": 4}.get(encoding)
    if channels is None:
        raise ValueError(f"image encoding '{encoding}' is not supported (rgb8, bgr8, rgba8, bgra8)")
    rows = np.frombuffer(bytes(data), dtype=np.uint8)
    if rows.size < height * step or step < width * channels:
        raise ValueError(f"image data too short: {rows.size} bytes for {height} rows of {step}")
    pixels = rows[: height * step].reshape(height, step)[:, : width * channels].reshape(height, width, channels)
    rgb = pixels[:, :, :3]
    return np.ascontiguousarray(rgb[:, :, ::-1] if encoding.startswith("bgr") else rgb)


def keep_frame(frames: list, frame: tuple[str, np.ndarray], limit: int) -> None:
    """Add `frame` to `frames` (at most `limit`); once full, the last tile is replaced by
    each newer frame, so a montage of a long run still ends on how the run ended."""
    if limit < 1:
        raise ValueError(f"a montage keeps at least one frame, not {limit}")
    if len(frames) < limit:
        frames.append(frame)
    else:
        frames[-1] = frame


def write_montage(frames: list[tuple[str, np.ndarray]], path: Path, columns: int = 6, scale: float = 1.0) -> Path:
    """Save frames (caption, RGB array) as one PNG grid; returns the path."""
    from PIL import Image, ImageDraw

    if not frames:
        raise ValueError("no frames to put in a montage")
    h, w = frames[0][1].shape[:2]
    tw, th = int(w * scale), int(h * scale)
    columns = max(1, min(columns, len(frames)))
    rows = (len(frames) + columns - 1) // columns
    sheet = Image.new("RGB", (columns * tw, rows * (th + CAPTION_H)), (255, 255, 255))
    draw = ImageDraw.Draw(sheet)
    for i, (caption, pixels) in enumerate(frames):
        x, y = (i % columns) * tw, (i // columns) * (th + CAPTION_H)
        tile = Image.fromarray(np.asarray(pixels, dtype=np.uint8)).resize((tw, th))
        sheet.paste(tile, (x, y + CAPTION_H))
        draw.text((x + 3, y + 2), caption[:40], fill=(0, 0, 0))
    path.parent.mkdir(parents=True, exist_ok=True)
    sheet.save(path)
    return path
