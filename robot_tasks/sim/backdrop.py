"""Render what never moves once: a camera's static backdrop, and each frame only what moves.

A fixed camera over a table sees mostly things that never move: the floor, the table,
a pallet, a conveyor. PyBullet's CPU renderer (ER_TINY_RENDERER) still draws them again
for every frame, and on this project's scenes they are 40-60 % of a frame's cost (the
floor alone covers most of the image). A z-buffer makes the work separable:

1. the *backdrop*: render once with every moving body hidden; keep its colours and its
   depth buffer;
2. each frame: render with the static bodies hidden (only robots and objects are drawn),
   then take, per pixel, whichever of the two is nearer.

The result is the same image and the same depth buffer as one full render, pixel for
pixel (tests/sim/test_camera_backdrop.py checks every scene), because a pixel of the full
render shows the nearest surface, and that surface is the nearer of the nearest static and
the nearest moving one. It holds as long as nothing in the renderer couples the two sets:
no shadows (TinyRenderer draws none unless asked) and no transparency of real bodies.

"Static" means the world's `static_bodies` (table, plane, pallet ...) that have no joints.
The backdrop is rendered again whenever one of them moves, changes its visuals, or the
camera's view changes. A body is hidden by setting its visual alpha to 0 (TinyRenderer then
writes neither colour nor depth for it) and restored to the colour PyBullet reported.
"""
from __future__ import annotations

from contextlib import contextmanager

import numpy as np
import pybullet as p


def static_body_ids(world) -> list[int]:
    """The world's static bodies that can go in a backdrop: registered, and without joints."""
    cid = world.client
    return sorted(b for b in set(world.static_bodies.values())
                  if p.getNumJoints(b, physicsClientId=cid) == 0)


def _signature(world, bodies: list[int]) -> tuple:
    """Everything about the static bodies that shows in a picture: pose and visuals."""
    cid = world.client
    return tuple((b, p.getBasePositionAndOrientation(b, physicsClientId=cid),
                  tuple(p.getVisualShapeData(b, physicsClientId=cid))) for b in bodies)


@contextmanager
def hidden(world, bodies):
    """Make `bodies` invisible to the renderer for the duration of the block."""
    cid = world.client
    shapes = [(b, shape[1], shape[7]) for b in bodies for shape in p.getVisualShapeData(b, physicsClientId=cid)]
    for body, link, rgba in shapes:
        p.changeVisualShape(body, link, rgbaColor=[rgba[0], rgba[1], rgba[2], 0.0], physicsClientId=cid)
    try:
        yield
    finally:
        for body, link, rgba in shapes:
            p.changeVisualShape(body, link, rgbaColor=list(rgba), physicsClientId=cid)


class StaticBackdrop:
    """One camera's backdrop, re-rendered only when the static scene or the view changed.

    ``render()`` is the camera's own call, drawing whatever is visible: it returns
    (rgba (H, W, 4) uint8, OpenGL depth buffer (H, W) float32).
    """

    def __init__(self, world):
        self.world = world
        self._key = None
        self._rgba = self._zbuf = None
        self.renders = 0            # how often the backdrop itself was drawn (for tests)

    def compose(self, render, view_key) -> tuple[np.ndarray, np.ndarray]:
        """The full picture: the (cached) backdrop, overdrawn by this frame's moving bodies."""
        world = self.world
        static = static_body_ids(world)
        if not static:
            return render()
        key = (view_key, _signature(world, static))
        if key != self._key:
            cid = world.client
            moving = [b for b in (p.getBodyUniqueId(i, physicsClientId=cid)
                                  for i in range(p.getNumBodies(physicsClientId=cid))) if b not in static]
            with hidden(world, moving):
                self._rgba, self._zbuf = render()
            self._key = key
            self.renders += 1
        with hidden(world, static):
            rgba, zbuf = render()
        nearer = zbuf < self._zbuf
        return np.where(nearer[..., None], rgba, self._rgba), np.where(nearer, zbuf, self._zbuf)
