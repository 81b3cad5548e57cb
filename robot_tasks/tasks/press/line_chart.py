"""Stacked line-chart panels sharing one time axis, drawn with Pillow (no matplotlib here).

    panels = [Panel("normal force (N)", [Series("contact", t, f, (200, 40, 40))], reference=10.0)]
    write_chart(panels, "press.png", title="franka_press", x_label="sim time (s)")

Each panel autoscales its y axis to its series (plus an optional dashed reference line), with
five labelled ticks on each axis and a legend in its top-left corner.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
from PIL import Image, ImageDraw

WIDTH, PANEL_H, MARGIN_L, MARGIN_R, MARGIN_T, GAP = 960, 230, 70, 20, 34, 40
GRID, AXIS, TEXT = (225, 225, 225), (60, 60, 60), (20, 20, 20)


@dataclass
class Series:
    label: str
    x: np.ndarray
    y: np.ndarray
    color: tuple
    dashed: bool = False


@dataclass
class Panel:
    y_label: str
    series: list = field(default_factory=list)
    reference: float | None = None      # a horizontal dashed line (a target value)


def _ticks(low: float, high: float, count: int = 5) -> np.ndarray:
    return np.linspace(low, high, count)


def _polyline(draw, points, color, dashed: bool) -> None:
    if not dashed:
        draw.line(points, fill=color, width=2)
        return
    for k in range(0, len(points) - 1, 2):
        draw.line(points[k:k + 2], fill=color, width=2)


def _draw_panel(draw, panel: Panel, top: int, x_range, x_label: str | None) -> None:
    left, right, bottom = MARGIN_L, WIDTH - MARGIN_R, top + PANEL_H
    values = [s.y for s in panel.series] + ([[panel.reference]] if panel.reference is not None else [])
    low, high = float(min(np.min(v) for v in values)), float(max(np.max(v) for v in values))
    pad = 0.08 * (high - low or 1.0)
    low, high = low - pad, high + pad
    x0, x1 = x_range

    def px(x, y):
        return (left + (x - x0) / (x1 - x0) * (right - left),
                bottom - (y - low) / (high - low) * (bottom - top))

    for y in _ticks(low, high):
        draw.line([px(x0, y), px(x1, y)], fill=GRID)
        draw.text((4, px(x0, y)[1] - 6), f"{y:8.2f}", fill=TEXT)
    for x in _ticks(x0, x1):
        draw.line([px(x, low), px(x, high)], fill=GRID)
        draw.text((px(x, low)[0] - 10, bottom + 4), f"{x:.1f}", fill=TEXT)
    draw.rectangle([left, top, right, bottom], outline=AXIS)
    draw.text((left + 4, top - 14), panel.y_label, fill=TEXT)
    if panel.reference is not None:
        ref = [px(x, panel.reference) for x in np.linspace(x0, x1, 120)]
        _polyline(draw, ref, (120, 120, 120), dashed=True)
    for k, s in enumerate(panel.series):
        step = max(1, len(s.x) // 2000)
        points = [px(x, y) for x, y in zip(s.x[::step], s.y[::step])]
        _polyline(draw, points, s.color, s.dashed)
        draw.line([left + 10, top + 12 + 14 * k, left + 30, top + 12 + 14 * k], fill=s.color, width=3)
        draw.text((left + 36, top + 6 + 14 * k), s.label, fill=TEXT)
    if x_label:
        draw.text(((left + right) // 2 - 40, bottom + 18), x_label, fill=TEXT)


def write_chart(panels: list, path, title: str = "", x_label: str = "") -> Path:
    """Draw the panels one under the other and save a PNG; returns the path."""
    height = MARGIN_T + len(panels) * (PANEL_H + GAP) + 10
    image = Image.new("RGB", (WIDTH, height), (255, 255, 255))
    draw = ImageDraw.Draw(image)
    draw.text((MARGIN_L, 8), title, fill=TEXT)
    xs = [s.x for panel in panels for s in panel.series]
    x_range = (float(min(np.min(x) for x in xs)), float(max(np.max(x) for x in xs)))
    for k, panel in enumerate(panels):
        last = k == len(panels) - 1
        _draw_panel(draw, panel, MARGIN_T + k * (PANEL_H + GAP), x_range, x_label if last else None)
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    image.save(path)
    return path
