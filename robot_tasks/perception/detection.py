"""What perception returns: one Detection per recognised object, in the world frame."""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class PixelBox:
    """Axis-aligned image box of the object's pixels: columns u_min..u_max, rows v_min..v_max,
    inclusive. ``center`` and ``size`` give the vision_msgs/BoundingBox2D form."""

    u_min: int
    v_min: int
    u_max: int
    v_max: int

    @property
    def center(self) -> tuple[float, float]:
        return ((self.u_min + self.u_max) / 2.0, (self.v_min + self.v_max) / 2.0)

    @property
    def size(self) -> tuple[int, int]:
        return (self.u_max - self.u_min + 1, self.v_max - self.v_min + 1)


@dataclass(frozen=True)
class Detection:
    """One object seen in one RGB-D frame.

    label        catalogue name, e.g. ``red_cube``, ``banana``, ``bowl``, ``bin``.
    position     (x, y, z) world metres of the object's centre: the centre of its
                 bounding box in its own frame (for a cube or bin that is its centroid).
    orientation  (x, y, z, w) world quaternion. Cubes: yaw about world z, folded into
                 [-45, 45) degrees (their symmetry); a cube lying tilted (leaning on
                 another) carries its tilt: the z axis is then the normal of its face
                 nearest to up, the x axis an edge of that face, the yaw folded in the
                 face. Readers of the yaw alone (the tasks' ``yaw_from_quaternion``) get
                 the direction of that edge seen from above. Bins: yaw
                 folded into [-90, 90), and a bin lying tilted more than 3 degrees also
                 carries its tilt: the z axis is then the normal of its face that is up.
                 Banana: x along its length, yaw folded into [-90, 90). Bowl: identity (round).
    size         (x, y, z) metres along the object's own axes, as measured (falls back to
                 the catalogue size for an axis that is hidden or cut off).
    confidence   0..1: how much of the expected surface was seen times how well the
                 measured shape matches the catalogue shape.
    pixel_count  image pixels assigned to the object.
    upside_down  bins: True when the closed bottom faces up; None for objects where it
                 does not apply.
    bbox         image box of those pixels.
    truncated    True when part of the object is cut off by the image border or hidden
                 behind something nearer the camera; its pose then leans on the catalogue size.
    """

    label: str
    position: tuple[float, float, float]
    orientation: tuple[float, float, float, float]
    size: tuple[float, float, float]
    confidence: float
    pixel_count: int
    upside_down: bool | None
    bbox: PixelBox
    truncated: bool = False

    def sort_key(self) -> tuple:
        """Label, then position rounded to the millimetre: a stable order between frames."""
        return (self.label, round(self.position[0], 3), round(self.position[1], 3),
                round(self.position[2], 3))
