"""Where the hand goes in each phase of a pick-and-place, from what perception saw.

The expert's seven phases need six tool poses (world frame, the frame the arm moves,
panda_grasptarget, is `hand_to_tool` below the hand frame the GraspProfile speaks of):

    pregrasp   above the object, at grasp height + pregrasp_height        (PLANNED)
    grasp      the grasp height, same xy and orientation                   (CARTESIAN descent)
    lift       straight above the grasp, + lift_height                     (BOUNDED)
    release    above the target: the object's lowest point release_clearance over the rim
                                                                           (BOUNDED transport)
    retreat    straight above the release, + retreat_height                (CARTESIAN)

The hand points down (a half turn about x) and is turned about z by the grasp yaw =
object yaw + yaw_offset. Perception's yaw of an elongated object is the direction of its
length; the fingers close along the hand's y axis, which a half turn about x and a turn
by the grasp yaw lays at grasp yaw - 90 deg: yaw_offset 0 closes them across the length.

Grasp height (of the hand):
    center_align false   the profile's fixed grasp_hand_z
    center_align true    fingertip_z = center_z - drop_fraction * half_height
                         grasp_hand_z = max(fingertip_z + hand_to_fingertip, z_max + palm_clearance)
with center_z, half_height and z_max from the object's detected box (settled on the table).
"""
from __future__ import annotations

from dataclasses import dataclass

from robot_tasks.tasks.banana_bowl.contract import GraspProfile, TaskSpec
from robot_tasks.tasks.errors import TaskError
from robot_tasks.tasks.palletizing.tool import cup_down
from robot_tasks.tasks.world_view import Seen

Pose = dict


@dataclass(frozen=True)
class PlaceTarget:
    """Where the object goes: a centre and, for a bowl, its rim (None for a table point)."""

    x: float
    y: float
    rim_z: float | None
    rim_radius: float | None


def place_target_of(spec: TaskSpec, seen: dict) -> PlaceTarget:
    """The bowl as perception sees it (rim = top of its box, radius = half its smaller
    horizontal extent), or the spec's table point; TaskError if the label is not seen."""
    label = spec.place_label
    if label is None:
        x, y = spec.place_target
        return PlaceTarget(x, y, None, None)
    target = seen.get(label)
    if target is None:
        raise TaskError(f"place target {label!r} not among the detections ({', '.join(sorted(seen)) or 'none'})")
    x, y, z = target.position
    return PlaceTarget(x, y, z + target.size[2] / 2.0, min(target.size[0], target.size[1]) / 2.0)


def grasp_hand_z(profile: GraspProfile, obj: Seen) -> float:
    """The hand frame's height at the grasp (see the module docstring)."""
    if not profile.center_align:
        return profile.grasp_hand_z
    center_z, half_height = obj.position[2], obj.size[2] / 2.0
    fingertip_z = center_z - profile.drop_fraction * half_height
    return max(fingertip_z + profile.hand_to_fingertip, center_z + half_height + profile.palm_clearance)


def hand_orientation(profile: GraspProfile, obj: Seen) -> tuple[float, float, float, float]:
    """(qx, qy, qz, qw): pointing down, turned by grasp yaw = object yaw + yaw_offset."""
    return cup_down(obj.yaw + profile.yaw_offset)


def _pose(x: float, y: float, z: float, q) -> Pose:
    return {"x": x, "y": y, "z": z, "qx": q[0], "qy": q[1], "qz": q[2], "qw": q[3], "frame_id": "world"}


def pick_and_place_poses(spec: TaskSpec, profile: GraspProfile, obj: Seen, target: PlaceTarget) -> dict:
    """The six tool poses {pregrasp, grasp, lift, release, retreat} (dicts MoveToPose reads)."""
    q = hand_orientation(profile, obj)
    x, y, _ = obj.position
    tool_z = grasp_hand_z(profile, obj) - profile.hand_to_tool
    if tool_z < spec.table_top_z:
        raise TaskError(f"grasp of {obj.label}: the tool would go {spec.table_top_z - tool_z:.3f} m into the table "
                        f"(grasp height of profile {profile.name!r})")
    bottom_below_tool = tool_z - (obj.position[2] - obj.size[2] / 2.0)
    floor = target.rim_z if target.rim_z is not None else spec.table_top_z
    release_z = floor + spec.release_clearance + bottom_below_tool
    return {
        "pregrasp": _pose(x, y, tool_z + spec.pregrasp_height, q),
        "grasp": _pose(x, y, tool_z, q),
        "lift": _pose(x, y, tool_z + spec.lift_height, q),
        "release": _pose(target.x, target.y, release_z, q),
        "retreat": _pose(target.x, target.y, release_z + spec.retreat_height, q),
    }
