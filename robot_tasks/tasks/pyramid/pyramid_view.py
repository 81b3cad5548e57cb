"""What perception's view of the pyramid means: which cube rests on which, and the
order the robots walk them. Plain geometry on `Seen` records; no ROS, no simulator.

A cube rests on another when its centre is about one cube higher and their footprints
overlap: in a 3-2-1 pyramid the top cube rests on both middle ones, each middle one on
two bottom ones. A cube is free to take when nothing rests on it.
"""
from __future__ import annotations

from typing import Iterable, Mapping, Sequence

from robot_tasks.tasks.errors import TaskError
from robot_tasks.tasks.world_view import Seen

CUBE_SIZE = 0.05


class PyramidError(TaskError):
    """The pyramid task cannot go on as asked (bad port text, cubes not seen ...)."""


def rests_on(upper: Seen, lower: Seen, size: float = CUBE_SIZE) -> bool:
    """True when `upper` sits on `lower`: 0.5-1.5 cube sizes higher, footprints overlapping."""
    dz = upper.position[2] - lower.position[2]
    dx, dy = (abs(upper.position[i] - lower.position[i]) for i in (0, 1))
    return 0.5 * size < dz < 1.5 * size and dx < 0.95 * size and dy < 0.95 * size


def free_cubes(seen: Mapping[str, Seen], labels: Iterable[str] | None = None,
               size: float = CUBE_SIZE) -> set[str]:
    """The seen cubes (of `labels`, default all) with nothing resting on them."""
    names = [n for n in (labels if labels is not None else seen) if n in seen]
    return {n for n in names if not any(rests_on(seen[o], seen[n], size) for o in seen if o != n)}


def top_down_order(seen: Mapping[str, Seen], labels: Iterable[str]) -> list[str]:
    """The labels seen, highest layer first, each layer by world x (ascending: from
    panda_1's side to panda_2's), then y.

    Layers are cube-size bands of height, so a few millimetres of noise do not swap
    a middle cube with a bottom one."""
    names = [n for n in labels if n in seen]
    if not names:
        return []
    floor = min(seen[n].position[2] for n in names)
    layer = {n: round((seen[n].position[2] - floor) / CUBE_SIZE) for n in names}
    return sorted(names, key=lambda n: (-layer[n], seen[n].position[0], seen[n].position[1]))


def parse_indices(text: str | Sequence[int], count: int, what: str = "walk") -> list[int]:
    """'0;2;1;5;4;3' -> [0, 2, 1, 5, 4, 3]: each of 0..count-1 exactly once."""
    try:
        values = [int(v) for v in text.split(";") if v.strip()] if isinstance(text, str) else [int(v) for v in text]
    except ValueError:
        raise PyramidError(f"{what} must be ';'-separated cube indices, got {text!r}") from None
    if sorted(values) != list(range(count)):
        raise PyramidError(f"{what} must list each of 0..{count - 1} once, got {values}")
    return values


def walk_labels(cubes: Sequence[str], walk: str | Sequence[int]) -> list[str]:
    """The robot's order of the surveyed cubes: `walk` indexes `cubes` (top first)."""
    return [cubes[i] for i in parse_indices(walk, len(cubes))]
