"""The geometry and the checks of one pick-and-place, as plain functions on numbers.

Isaac Sim's Franka pick-place example drives the hand through fixed events: above the
cube, down, close, up, over the goal, down, open, up. Here those are poses computed from
what perception reports and from the target point the goal names, and the tree
(trees/franka_pick_place.xml) moves through them:

    pregrasp  APPROACH above the cube's centre, the hand straight down, turned to the cube
    grasp     the cube's centre (the fingers close on two opposite faces)
    lift      straight up from the grasp to CARRY_HEIGHT above the table
    transport over the target at the same height
    lower     the cube's centre PLACE_GAP above where it rests on the target
    retract   APPROACH above that

The hand keeps the yaw it grasped with all the way: the target is a point, so the cube
may end turned as it was, and the wrist never turns while the cube is in it.

Two checks, each a pure function of a detection:

    moved_since_seen  the cube is seen more than RESYNC_DISTANCE from where the pickup
                      started (someone dragged it): the approach must start again;
    on_target         the cube is seen within a tolerance of the target point, sideways.

A cube perception does not report right now (the hand hides it) is no evidence: neither
check fires on a missing detection. No ROS import, no simulator.
"""
from __future__ import annotations

import math

from robot_tasks.tasks.errors import TaskError

from ..world_view import Seen, Vec3, distance, horizontal_distance

APPROACH = 0.10          # m above the cube's centre: pre-grasp and retract
CARRY_HEIGHT = 0.15      # m of the held cube's centre above its resting height while carried
PLACE_GAP = 0.005        # m: let go this much above the resting height (no push into the table)
RESYNC_DISTANCE = 0.05   # m: a cube moved this far since the pickup started was moved by someone
# The tree's own placement check (perception); the demo's grader (episode.py) allows
# 2 cm on the ground truth, so the tree re-places anything it cannot vouch for in 1.5 cm.
ON_TARGET_DISTANCE = 0.015


class PickPlaceError(TaskError):
    """A target the task cannot use (unreadable, not finite); the message says what it got."""


def parse_target(text) -> tuple[float, float]:
    """'x;y' (world metres, the ExecuteTree payload's `target`) -> (x, y)."""
    parts = [part for part in str(text).split(";") if part.strip()]
    try:
        if len(parts) != 2:
            raise ValueError
        x, y = float(parts[0]), float(parts[1])
    except ValueError:
        raise PickPlaceError(f"target must be 'x;y' in world metres, got {text!r}") from None
    if not (math.isfinite(x) and math.isfinite(y)):
        raise PickPlaceError(f"target must be finite, got {text!r}")
    return (x, y)


def folded_yaw(yaw: float) -> float:
    """The hand's yaw for a cube turned by `yaw`: a cube looks the same every quarter turn,
    so the smallest equivalent turn, in [-pi/4, pi/4)."""
    quarter = math.pi / 2.0
    return (yaw + quarter / 2.0) % quarter - quarter / 2.0


def hand_down(position: Vec3, yaw: float) -> dict:
    """The tool pose pointing straight down at `position`, turned by `yaw` about world z,
    as the dict MoveToPose's `pose` reads: a half turn about x, then `yaw` about z."""
    half = yaw / 2.0
    x, y, z = (float(v) for v in position)
    return {"x": x, "y": y, "z": z, "qx": math.cos(half), "qy": math.sin(half), "qz": 0.0, "qw": 0.0,
            "frame_id": "world"}


def pick_poses(cube: Seen) -> dict[str, dict]:
    """{pregrasp_pose, grasp_pose} for the cube as seen now."""
    x, y, z = cube.position
    yaw = folded_yaw(cube.yaw)
    return {"pregrasp_pose": hand_down((x, y, z + APPROACH), yaw), "grasp_pose": hand_down((x, y, z), yaw)}


def carry_poses(grasp: Vec3, yaw: float, target: tuple[float, float], rest_z: float) -> dict[str, dict]:
    """{lift_pose, transport_pose, lower_pose, retract_pose} taking a cube held at `grasp`
    (its centre, where the tool closed) to rest on `target`; `rest_z` is the height of a
    resting cube's centre (where it was seen on the table)."""
    carry_z = max(rest_z + CARRY_HEIGHT, grasp[2])
    tx, ty = target
    return {"lift_pose": hand_down((grasp[0], grasp[1], carry_z), yaw),
            "transport_pose": hand_down((tx, ty, carry_z), yaw),
            "lower_pose": hand_down((tx, ty, rest_z + PLACE_GAP), yaw),
            "retract_pose": hand_down((tx, ty, rest_z + APPROACH), yaw)}


def moved_since_seen(first_seen: Vec3 | None, now: Seen | None, threshold: float = RESYNC_DISTANCE) -> bool:
    """Pickup resync: the cube is seen more than `threshold` from where its pickup started.
    No start or no detection now -> False (no evidence)."""
    if first_seen is None or now is None:
        return False
    return distance(first_seen, now.position) > threshold


def off_target_by(cube: Seen, target: tuple[float, float]) -> float:
    """How far [m] the cube's centre is from the target point, sideways."""
    return horizontal_distance(cube.position, (target[0], target[1], 0.0))


def on_target(cube: Seen | None, target: tuple[float, float], tolerance: float = ON_TARGET_DISTANCE) -> bool:
    """The cube is seen within `tolerance` of the target point, sideways (not seen: False)."""
    return cube is not None and off_target_by(cube, target) <= tolerance
