"""The run-time part of the planning scene: boxes that arrive while the robot works.

The table never moves, so it is a static obstacle from the arm server's parameters. A
bowl's pose is known only once perception has seen it, so it arrives at run time, as
MoveIt's planning-scene updates do: one message = the whole run-time set, which REPLACES
the previous one (an empty set clears it; the static boxes always stay).

    boxes = runtime_boxes([ObstacleEntry("bowl", (0.6, 0.2, 0.68), (0, 0, 0, 1), (0.2, 0.2, 0.1))],
                          "world", frames, reserved=("table",))
    planner.set_runtime_obstacles(boxes)

An entry is refused as a whole set (InputError naming the object, nothing applied) when
its name is empty, repeated or a static obstacle's, its pose is not finite or its
quaternion is not a unit one, an edge length is not positive, or the frame is not one the
arm knows (its base frame or "world"). Refusing the whole set keeps the scene consistent:
the previous set stays until a good one arrives.
"""
from __future__ import annotations

from dataclasses import dataclass

from .collision import Box
from .errors import InputError
from .motion_errors import MotionFailure
from .motion_request import FrameMap
from .pose import Pose, as_vector, unit_quaternion_problem


@dataclass(frozen=True)
class ObstacleEntry:
    """One box as it arrives: name, centre pose (x, y, z) + (qx, qy, qz, qw), full edge lengths."""

    name: str
    position: tuple
    quaternion: tuple
    size: tuple


def runtime_boxes(entries, frame_id: str, frames: FrameMap, reserved=()) -> list:
    """Validated Boxes in the base frame; InputError naming the first bad object."""
    entries = list(entries)
    try:
        frames.to_base(Pose([0.0, 0.0, 0.0]), frame_id)
    except MotionFailure as exc:
        objects = ", ".join(f"'{e.name}'" for e in entries)
        raise InputError(f"obstacles {objects}: {exc.message}") from None
    boxes, names = [], set(reserved)
    for index, entry in enumerate(entries):
        label = f"obstacle '{entry.name}'" if entry.name else f"obstacle #{index}"
        if not entry.name:
            raise InputError(f"{label}: the name is empty")
        if entry.name in names:
            what = "a static obstacle's" if entry.name in reserved else "used twice"
            raise InputError(f"{label}: the name is {what}")
        names.add(entry.name)
        problem = unit_quaternion_problem(entry.quaternion)
        if problem:
            raise InputError(f"{label}: orientation {problem}")
        try:
            pose = Pose(as_vector(entry.position, 3, f"{label} position"), entry.quaternion)
            boxes.append(Box(entry.name, tuple(entry.size), frames.to_base(pose, frame_id)))
        except InputError as exc:
            text = str(exc)
            raise InputError(text if text.startswith(label) or entry.name in text
                             else f"{label}: {text}") from None
    return boxes
