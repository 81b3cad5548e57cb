"""The objects perception knows: a label, a shape kind, a colour and a nominal size.

Everything scene-specific lives here as data, so a new coloured cube or a differently
sized bin is one more ObjectSpec, not new code. Colours are hue bands (see color.py); the
defaults match the sim's palette (robot_tasks.sim.objects.COLORS):

    red (0.85, 0.10, 0.10) hue 0     green  (0.10, 0.70, 0.20) hue 130
    blue (0.10, 0.25, 0.85) hue 228  yellow (0.95, 0.85, 0.10) hue 53
    orange (1.0, 0.5, 0.05) hue 28   purple (0.55, 0.20, 0.75) hue 282
    wood (0.72, 0.56, 0.36) hue 33, saturation 0.5 (the pallet); table texture ~hue 30,
    saturation 0.2-0.35 -- hence orange's high saturation floor.

Kinds and what their fitter assumes:

    cube      a square-based box of ``size`` resting on a face, top face visible from above
    banana    an elongated, curved object; ``size`` = (length, width of the smallest
              rectangle around it seen from above, thickness)
    bowl      a round open container; ``size`` = (diameter, diameter, height)
    bin       an open-top box; ``size`` = (length, width, height) and it may lie upside down
    round     a near-spherical object (a lemon); ``size`` = (length, width, height) of the
              disc it shows from above, length >= width
"""
from __future__ import annotations

from dataclasses import dataclass

from robot_tasks.perception.color import ColorClass

RED = ColorClass("red", ((340.0, 15.0),))
ORANGE = ColorClass("orange", ((18.0, 40.0),), min_saturation=0.75)
YELLOW = ColorClass("yellow", ((42.0, 72.0),))
GREEN = ColorClass("green", ((90.0, 165.0),))
BLUE = ColorClass("blue", ((200.0, 250.0),))
PURPLE = ColorClass("purple", ((262.0, 320.0),))

KINDS = ("cube", "banana", "bowl", "bin", "round")


@dataclass(frozen=True)
class ObjectSpec:
    """One kind of object to look for.

    min_confidence  candidates below this are dropped (phantoms, fragments).
    """

    label: str
    kind: str
    color: ColorClass
    size: tuple[float, float, float]
    min_confidence: float = 0.3

    def __post_init__(self) -> None:
        if self.kind not in KINDS:
            raise ValueError(f"ObjectSpec {self.label}: unknown kind {self.kind!r}, expected one of {KINDS}")
        if len(self.size) != 3 or min(self.size) <= 0:
            raise ValueError(f"ObjectSpec {self.label}: size must be three positive lengths")
        if self.kind == "cube" and abs(self.size[0] - self.size[1]) > 1e-9:
            raise ValueError(f"ObjectSpec {self.label}: a cube needs a square base (size x == y)")


CUBE_SIZE = 0.05

DEFAULT_CATALOG: tuple[ObjectSpec, ...] = (
    ObjectSpec("red_cube", "cube", RED, (CUBE_SIZE,) * 3),
    ObjectSpec("blue_cube", "cube", BLUE, (CUBE_SIZE,) * 3),
    ObjectSpec("green_cube", "cube", GREEN, (CUBE_SIZE,) * 3),
    ObjectSpec("yellow_cube", "cube", YELLOW, (CUBE_SIZE,) * 3),
    ObjectSpec("orange_cube", "cube", ORANGE, (CUBE_SIZE,) * 3),     # franka_pyramid
    ObjectSpec("purple_cube", "cube", PURPLE, (CUBE_SIZE,) * 3),
    # YCB 011_banana resting on the table, seen from above: a 0.186 x 0.060 rectangle holds
    # it (measured on the sim's banana_bowl renders), 0.038 thick.
    ObjectSpec("banana", "banana", YELLOW, (0.186, 0.060, 0.038)),
    # YCB 024_bowl: 0.161 across, 0.055 high; the sim paints it blue.
    ObjectSpec("bowl", "bowl", BLUE, (0.161, 0.161, 0.055)),
    # YCB 014_lemon lies on its side, 6.8 x 5.3 x 5.3 cm (its mesh in the sim); seen from
    # above it shows a disc of about 6 cm (its low, steep ends mostly fall outside the
    # segment) and 5.3 cm of height; the sim paints it lemon yellow.
    ObjectSpec("lemon", "round", YELLOW, (0.060, 0.060, 0.053)),
    # The sim's KLT-like bin: 30 x 20 x 12 cm, rgba (0.2, 0.35, 0.6) = hue 218, saturation 0.67.
    ObjectSpec("bin", "bin", BLUE, (0.30, 0.20, 0.12)),
)


def catalog_for(labels, catalog: tuple[ObjectSpec, ...] = DEFAULT_CATALOG) -> tuple[ObjectSpec, ...]:
    """The entries of `catalog` with these labels, in catalogue order; every entry when
    `labels` is empty. A scene that knows what it holds looks only for that: each colour
    with no entry left is not even segmented, and a blob is not fitted as shapes that
    cannot be there (the stacking table has no bins, bowls or bananas). Raises ValueError
    naming an unknown label and the known ones."""
    wanted = list(labels)
    if not wanted:
        return tuple(catalog)
    known = [spec.label for spec in catalog]
    unknown = [label for label in wanted if label not in known]
    if unknown:
        raise ValueError(f"unknown label(s) {', '.join(map(repr, unknown))}; the catalogue knows: "
                         f"{', '.join(known)}")
    return tuple(spec for spec in catalog if spec.label in wanted)
