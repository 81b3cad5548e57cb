"""Pure logic of cube stacking: what to pick next, where to put it, and the three checks.

Everything here is plain Python on numbers (no behavior tree, no ROS), so it is tested
on its own; `stacking.py` wraps it in thin tree leaves.

The task's state is a handful of named blackboard entries the tree file shows as ports,
and these functions take them as arguments and return new values (they never change
what they are given):

- `layout`   a `StackLayout`, fixed at the start: the stack order, where the stack
             stands, the table height, the cube size and the motion heights;
- `stacked`  the labels booked on the stack, bottom first (a tuple);
- `spawns`   where each cube was first seen, or where it was last parked;
- `suspects` cubes a stack check saw displaced while the arm held another one;
- `holding`  the label of the held cube ('' for an empty hand);
- `first_seen` where the cube being picked was when its pickup started.

The three reactive checks of the Isaac Sim stacking tutorial, as functions:

- `lost_grip`        drop detection: the held cube is more than `DROP_DISTANCE` from
                     the tool -> the gripper lost it;
- `moved_since_seen` pickup resync: a cube being approached moved more than
                     `RESYNC_DISTANCE` from where the pickup started;
- `lowest_displaced` stack validity: a cube already stacked is more than
                     `DISPLACED_DISTANCE` from its slot.

A cube that perception does not report right now (occluded by the gripper, say) is
"no evidence": none of the checks fires on a missing detection.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Iterable, Sequence

from robot_tasks.tasks.errors import TaskError
from robot_tasks.tasks.palletizing.tool import cup_onto

from ..world_view import Seen, Vec3, distance, horizontal_distance

DROP_DISTANCE = 0.10        # m, held cube centre to tool
RESYNC_DISTANCE = 0.05      # m, cube moved while we approached it
DISPLACED_DISTANCE = 0.03   # m, stacked cube away from its slot
# A stacked cube is judged only on a confident detection: lower cubes of a stack show
# just slivers of their sides, and a pose fitted to those (the perception server gives
# it a confidence of at most ~0.6) can be centimetres off.
EVIDENCE_CONFIDENCE = 0.65
# A cube seen leaning less than this is picked as a level one. Perception reports a cube
# tilted by under about 4 degrees as exactly level, so its level readings never get here.
LEVEL_TILT = math.radians(2.0)
# Where the arm stands (world x, y; franka_stacking puts the Panda at the origin). The
# Panda's hand sits turned by -45 degrees on its flange: pointing straight down at yaw
# 45 degrees plus the arm's heading to the cube, its last joint is mid-range.
ARM_BASE_XY = (0.0, 0.0)

DEFAULT_ORDER = ("red_cube", "blue_cube", "green_cube", "yellow_cube")
# Where the stack may stand (world x, y), tried in order; the first far enough from every cube wins.
DEFAULT_BASE_CANDIDATES = ((0.50, 0.0), (0.45, 0.20), (0.45, -0.20), (0.60, 0.15), (0.60, -0.15),
                           (0.35, 0.10), (0.35, -0.10), (0.65, 0.0), (0.50, 0.35), (0.50, -0.35))


class StackingError(TaskError):
    """The stacking task cannot go on as asked (e.g. a cube of the order is not seen)."""


@dataclass(frozen=True)
class Heights:
    """Motion heights and clearances [m] used to derive the arm targets."""

    approach: float = 0.10       # pre-grasp / retract height above a cube centre
    grasp_offset: float = 0.0    # tool z relative to the cube centre when grasping
    carry_clearance: float = 0.08  # held cube bottom above the top of a full stack
    place_gap: float = 0.005     # release this much above the slot


@dataclass(frozen=True)
class StackLayout:
    """What a stacking run fixes at its start (blackboard entry `layout`, never changed)."""

    order: tuple[str, ...]
    base_xy: tuple[float, float]
    table_z: float
    cube_size: float
    heights: Heights = field(default_factory=Heights)


# ---- set-up ----------------------------------------------------------------------------
def parse_order(text: str | Sequence[str]) -> tuple[str, ...]:
    """'red_cube;blue_cube' or a list -> labels bottom to top; duplicates are an error."""
    items = text.split(";") if isinstance(text, str) else list(text)
    order = tuple(str(i).strip() for i in items if str(i).strip())
    if not order:
        raise StackingError("the stack order is empty")
    if len(set(order)) != len(order):
        raise StackingError(f"the stack order names a cube twice: {';'.join(order)}")
    return order


def choose_stack_base(cubes: Iterable[Vec3], candidates: Sequence[tuple[float, float]] = DEFAULT_BASE_CANDIDATES,
                      clearance: float = 0.12) -> tuple[float, float]:
    """The first candidate (x, y) at least `clearance` from every cube, horizontally."""
    cubes = list(cubes)
    for xy in candidates:
        if all(horizontal_distance((xy[0], xy[1], 0.0), c) >= clearance for c in cubes):
            return (float(xy[0]), float(xy[1]))
    raise StackingError(f"no free place for the stack: every candidate is within {clearance} m of a cube")


def start_stacking(seen: dict[str, Seen], order: Sequence[str], cube_size: float = 0.05,
                   base_xy: tuple[float, float] | None = None,
                   heights: Heights | None = None) -> tuple[StackLayout, dict[str, Vec3]]:
    """The layout and the spawns at the start: every cube of `order` must be seen; their
    positions become their spawns, the table height is read from them, the base is
    chosen if not given."""
    order = parse_order(order)
    missing = [label for label in order if label not in seen]
    if missing:
        raise StackingError(f"perception does not see {', '.join(missing)} (sees: "
                            f"{', '.join(sorted(seen)) or 'nothing'})")
    if not cube_size > 0:
        raise StackingError(f"cube_size must be > 0, got {cube_size}")
    spawns = {label: seen[label].position for label in order}
    bottoms = sorted(p[2] - cube_size / 2.0 for p in spawns.values())
    table_z = bottoms[len(bottoms) // 2]
    if base_xy is None:
        base_xy = choose_stack_base(seen[label].position for label in seen)
    layout = StackLayout(order, (float(base_xy[0]), float(base_xy[1])), table_z, cube_size, heights or Heights())
    return layout, spawns


# ---- geometry --------------------------------------------------------------------------
def slot_position(layout: StackLayout, stacked: Sequence[str], level: int,
                  seen: dict[str, Seen] | None = None) -> Vec3:
    """Centre of the cube at `level` (0 = on the table) of the stack.

    Level 0 stands on the chosen base; a higher level stands on the cube booked below it
    *as perception sees it* (when `seen` has it), so a stack nudged a little keeps being
    built straight up from where its cubes really are. Heights are nominal."""
    x, y = layout.base_xy
    if seen is not None and 0 < level <= len(stacked):
        below = seen.get(stacked[level - 1])
        if below is not None and below.confidence >= EVIDENCE_CONFIDENCE:
            x, y = below.position[0], below.position[1]
    return (x, y, layout.table_z + layout.cube_size * (level + 0.5))


def carry_height(layout: StackLayout) -> float:
    """Tool height for carrying: the held cube's bottom clears a full stack."""
    full_top = layout.table_z + layout.cube_size * len(layout.order)
    return full_top + layout.cube_size / 2.0 + layout.heights.carry_clearance


def grasp_yaw(yaw: float) -> float:
    """A cube looks the same every quarter turn: the equivalent yaw in [-pi/4, pi/4]."""
    quarter = math.pi / 2.0
    return (yaw + quarter / 2.0) % quarter - quarter / 2.0


def top_down_pose(position: Vec3, yaw: float = 0.0) -> dict:
    """A tool pose pointing straight down (tool z = -world z), turned by `yaw` about
    world z, as the dict MoveToPose's `pose` port reads. q = Rz(yaw) * Rx(pi)."""
    return {"x": float(position[0]), "y": float(position[1]), "z": float(position[2]),
            "qx": math.cos(yaw / 2.0), "qy": math.sin(yaw / 2.0), "qz": 0.0, "qw": 0.0,
            "frame_id": "world"}


def pick_targets(layout: StackLayout, cube: Seen) -> dict[str, dict]:
    """pre-grasp (above the cube) and grasp poses for a cube as seen now: straight down for
    a level cube, along its up face's normal for a leaning one (see tilted_grasp)."""
    h = layout.heights
    if cube.tilt < LEVEL_TILT:
        x, y, z = cube.position
        yaw = grasp_yaw(cube.yaw)
        return {"pregrasp_pose": top_down_pose((x, y, z + h.approach), yaw),
                "grasp_pose": top_down_pose((x, y, z + h.grasp_offset), yaw)}
    up, orientation = tilted_grasp(cube)
    return {"pregrasp_pose": tool_pose(along(cube.position, up, h.approach), orientation),
            "grasp_pose": tool_pose(along(cube.position, up, h.grasp_offset), orientation)}


def tilted_grasp(cube: Seen) -> tuple[Vec3, tuple[float, float, float, float]]:
    """(up, tool orientation) for a cube that leans: `up` is its axis nearest world z (the
    up face's outward normal), the tool points along -up and closes across the cube.

    A cube knocked over comes to rest on one bottom edge, leaning on another cube: it is
    turned by its tilt about that edge, a horizontal line along one of its own axes, `a`.
    The two faces whose normals are +-a turn within their own planes and stay vertical;
    the other two side faces lean by the whole tilt. Fingers closing along a press flat
    on the vertical pair, and the cube cannot turn between them; closing on the leaning
    pair, a level gripper touches their edges and the squeeze turns the cube -- the
    grasp a yaw folded into a quarter turn picks about half the time. So the fingers
    close along the cube's axis nearest horizontal (a, for a cube on an edge; the best
    there is for one on a corner).

    The hand comes down along -up, tipped by the same tilt about a: it then holds the
    cube square, as it holds a level one, and the lift, which turns the hand straight
    down again, sets the cube level in the fingers, ready for the stack. Straight down
    with the fingers along a holds the cube too, but it stays tilted in the hand, and a
    tilted cube released over the stack lands centimetres off or falls off
    (test_stacking_leaning_pick).
    """
    axes = cube.axes()
    upright = max(axes, key=lambda axis: abs(axis[2]))
    up = tuple(v if upright[2] > 0 else -v for v in upright)
    across = min((axis for axis in axes if axis is not upright), key=lambda axis: abs(axis[2]))
    # Straight down at yaw, the tool's y axis -- the fingers' closing line -- is
    # (sin yaw, -cos yaw, 0). The hand is the same turned by a half turn: of the two,
    # take the one that leaves the wrist the most room for the tip.
    yaw = nearest_half_turn(math.atan2(across[0], -across[1]), wrist_middle_yaw(cube.position))
    return up, cup_onto(up, yaw)


def wrist_middle_yaw(position: Vec3) -> float:
    """The yaw of a straight-down hand above `position` at which the Panda's last joint
    is mid-range (see ARM_BASE_XY)."""
    return math.pi / 4.0 + math.atan2(position[1] - ARM_BASE_XY[1], position[0] - ARM_BASE_XY[0])


def nearest_half_turn(yaw: float, middle: float) -> float:
    """`yaw` plus the whole number of half turns that brings it within a quarter turn of `middle`."""
    return middle + (yaw - middle + math.pi / 2.0) % math.pi - math.pi / 2.0


def along(position: Vec3, direction: Vec3, distance_m: float) -> Vec3:
    """`position` moved `distance_m` along the unit vector `direction`."""
    return tuple(p + distance_m * d for p, d in zip(position, direction))  # type: ignore[return-value]


def tool_pose(position: Vec3, orientation: tuple[float, float, float, float]) -> dict:
    """A tool pose as the dict MoveToPose's `pose` port reads; orientation (x, y, z, w)."""
    qx, qy, qz, qw = orientation
    return {"x": float(position[0]), "y": float(position[1]), "z": float(position[2]),
            "qx": float(qx), "qy": float(qy), "qz": float(qz), "qw": float(qw), "frame_id": "world"}


def place_targets(layout: StackLayout, stacked: Sequence[str], held_at: Vec3, seen: dict[str, Seen] | None = None,
                  level: int | None = None) -> dict[str, dict]:
    """lift (straight up from where the cube is), transport (above the slot), lower
    (release height at the slot) and retract poses for the next free slot."""
    level = len(stacked) if level is None else level
    return carry_targets(layout, held_at, slot_position(layout, stacked, level, seen))


def carry_targets(layout: StackLayout, held_at: Vec3, destination: Vec3) -> dict[str, dict]:
    """lift / transport / lower / retract poses carrying a cube held at `held_at` to a cube
    centre at `destination` (a slot of the stack, or a spot on the table)."""
    carry_z = carry_height(layout)
    h = layout.heights
    x, y, z = destination
    return {"lift_pose": top_down_pose((held_at[0], held_at[1], max(carry_z, held_at[2]))),
            "transport_pose": top_down_pose((x, y, carry_z)),
            "lower_pose": top_down_pose((x, y, z + h.place_gap)),
            "retract_pose": top_down_pose((x, y, z + h.approach))}


# ---- decisions and checks --------------------------------------------------------------
def lowest_displaced(layout: StackLayout, stacked: Sequence[str], seen: dict[str, Seen],
                     tolerance: float = DISPLACED_DISTANCE, min_confidence: float = EVIDENCE_CONFIDENCE) -> int | None:
    """Level of the lowest stacked cube seen (with at least `min_confidence`) more than
    `tolerance` from its slot (on the base, or on the cube below as seen), else None.

    A displaced cube still standing on the stack's column, only lower than booked (at
    physical level k), shows that levels k.. lost a cube while levels below k hold it up:
    the answer is k, whatever perception sees of the cubes between."""
    seen = {label: cube for label, cube in seen.items() if cube.confidence >= min_confidence}
    for level, label in enumerate(stacked):
        cube = seen.get(label)
        if cube is not None and distance(cube.position, slot_position(layout, stacked, level, seen)) > tolerance:
            sits_at = physical_level(layout, cube.position[2])
            if 0 <= sits_at < level and \
                    horizontal_distance(cube.position, slot_position(layout, stacked, sits_at, seen)) <= tolerance:
                return sits_at
            return level
    return None


def physical_level(layout: StackLayout, z: float) -> int:
    """Which level of a stack a cube centred at height `z` occupies (0 = on the table)."""
    return round((z - layout.table_z) / layout.cube_size - 0.5)


def unstack_displaced(layout: StackLayout, stacked: Sequence[str], seen: dict[str, Seen],
                      tolerance: float = DISPLACED_DISTANCE) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """(kept, removed): the booking without the lowest displaced cube and everything
    booked above it (they must be re-stacked), and those removed, bottom first."""
    level = lowest_displaced(layout, stacked, seen, tolerance)
    if level is None:
        return tuple(stacked), ()
    return tuple(stacked[:level]), tuple(stacked[level:])


def next_cube(layout: StackLayout, stacked: Sequence[str]) -> str | None:
    """The first cube of the order not booked as stacked (None when the stack is done)."""
    for label in layout.order:
        if label not in stacked:
            return label
    return None


def stack_complete(layout: StackLayout, stacked: Sequence[str]) -> bool:
    """Every cube of the order is booked, in order."""
    return tuple(stacked) == layout.order


def moved_since_seen(first_seen: Vec3 | None, now: Seen | None, threshold: float = RESYNC_DISTANCE) -> bool:
    """Pickup resync: True when the cube is seen more than `threshold` from where the
    pickup started. Unknown start or no detection now -> False (no evidence)."""
    if first_seen is None or now is None:
        return False
    return distance(first_seen, now.position) > threshold


def tool_position_at(history: Sequence[tuple[float, Vec3]], stamp: float | None,
                     slack: float = 0.05) -> Vec3 | None:
    """Where the tool was at time `stamp`, from a time-sorted history of (time, position).

    Perception reports where things were when the image was taken, which is a camera
    period plus processing time ago; comparing that with where the tool is *now* would
    see a fast-moving held cube as dropped. So the drop check compares like with like.
    `stamp` None -> the latest position. A stamp older than the history (minus `slack`)
    -> None: no evidence. Between samples: linear interpolation.
    """
    if not history:
        return None
    if stamp is None or stamp >= history[-1][0]:
        return history[-1][1]
    if stamp < history[0][0] - slack:
        return None
    if stamp <= history[0][0]:
        return history[0][1]
    for (t0, p0), (t1, p1) in zip(history, history[1:]):
        if t0 <= stamp <= t1:
            w = 0.0 if t1 == t0 else (stamp - t0) / (t1 - t0)
            return tuple(a + w * (b - a) for a, b in zip(p0, p1))  # type: ignore[return-value]
    return history[-1][1]


def lost_grip(held: Seen | None, tool_position: Vec3 | None, threshold: float = DROP_DISTANCE) -> bool:
    """Drop detection: True when the held cube is seen more than `threshold` from the tool.
    Not seen, or tool pose unknown -> False (no evidence)."""
    if held is None or tool_position is None:
        return False
    return distance(held.position, tool_position) > threshold
