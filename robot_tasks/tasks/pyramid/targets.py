"""Where the arm goes to take one cube off the pyramid and put it on the robot's stack.

The seed scenario's numbers, for our tool frame `panda_grasptarget` (between the
fingertips; the seed states them for the hand flange, whose +0.09 m at grasp is our
tool at the cube's centre):

- approach: 0.20 m above the cube's centre, then straight down to the grasp (tool at
  the centre), lift straight up to 0.35 m above the table;
- goal: the robot's own spot, cube centre at table + 0.025 + 0.05 x placed count;
  place approach and retract 0.325 m above it;
- the place target is calibrated from the cube as seen in the hand after the lift: the
  tool goes to `goal - (cube - tool)`, so the cube, not the tool, lands on the goal
  (except along the fingers' closing axis, where they centre the cube themselves);
- after the release the cube must be seen where it was put (`on_stack`): a cube held
  tilted can slide off the stack's top and come to rest beside it;
- a cube booked on the stack but seen elsewhere was knocked off it (`knocked_off`): the
  robot's own recovery reaching next to its stack, or the other arm, can do that.

All poses point the tool straight down, turned about world z by a yaw that grips the
cube across two faces and is the one of the four equivalent ones nearest to the
robot's own forward direction (the two Pandas face each other: their wrists differ
by half a turn) -- unless another cube stands close along that grip's closing axis: then
the other axis, so that the open fingers and the hand do not come down on it (a cube
knocked next to a stack is the usual case). Plain numbers in, MoveToPose pose dicts out; no ROS.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Sequence

from robot_tasks.robots import TABLE_TOP_Z
from robot_tasks.tasks.world_view import Vec3

TABLE_Z = TABLE_TOP_Z
OFF_TABLE_BELOW = 0.02         # m under the table top: a cube centre that low has fallen off the table


def fell_off_table(position: Vec3, table_z: float = TABLE_Z) -> bool:
    """A cube resting on the table has its centre half a cube above the top; one seen with
    its centre below the top has fallen off (onto the floor): no arm of the cell reaches it."""
    return position[2] < table_z - OFF_TABLE_BELOW


@dataclass(frozen=True)
class Heights:
    approach: float = 0.20        # tool above the cube centre before going down (and to restage)
    grasp: float = 0.0            # tool relative to the cube centre when closing
    lift: float = 0.35            # tool above the table after the pickup
    over_goal: float = 0.325      # place approach and retract, above the goal
    place_gap: float = 0.004      # release this much above the goal
    cube: float = 0.05


def grasp_yaw_near(cube_yaw: float, preferred: float) -> float:
    """Of the cube's four equivalent yaws (quarter turns), the one nearest `preferred`."""
    quarter = math.pi / 2.0
    k = round((preferred - cube_yaw) / quarter)
    return _wrap(cube_yaw + k * quarter)


def closing_axis(yaw: float) -> tuple[float, float]:
    """World xy direction the fingers close along for a `top_down` tool turned by `yaw`
    (the Panda's fingers slide along its hand's y axis: Rz(yaw) Rx(pi) (0, 1, 0))."""
    return (math.sin(yaw), -math.cos(yaw))


def grasp_yaw_clear_of(cube: Vec3, cube_yaw: float, preferred: float, others: Sequence[Vec3],
                       reach: float = 0.12, h: Heights = Heights()) -> float:
    """The grip yaw for a cube with neighbours: of its two grasp axes, the one whose open
    fingers (8 cm apart) and hand (20 cm along the same axis) come down beside the
    neighbours rather than onto them. Only cubes within `reach` across and not below the
    cube's bottom count (lower ones pass under the fingertips). With no such neighbour,
    or no clear difference, the yaw nearest `preferred` (grasp_yaw_near)."""
    near = [o for o in others if math.hypot(o[0] - cube[0], o[1] - cube[1]) < reach
            and o[2] >= cube[2] - h.cube / 2.0]
    first = grasp_yaw_near(cube_yaw, preferred)
    if not near:
        return first
    # the other axis: a quarter turn either way, whichever leaves the wrist nearer `preferred`
    second = min((_wrap(first + turn) for turn in (math.pi / 2.0, -math.pi / 2.0)),
                 key=lambda yaw: abs(_wrap(yaw - preferred)))

    def worst_alignment(yaw: float) -> float:      # 1: a neighbour right on the closing axis
        ax, ay = closing_axis(yaw)
        return max(abs((o[0] - cube[0]) * ax + (o[1] - cube[1]) * ay) / max(math.hypot(o[0] - cube[0], o[1] - cube[1]), 1e-9)
                   for o in near)

    return second if worst_alignment(second) < worst_alignment(first) - 0.1 else first


def _wrap(angle: float) -> float:
    return math.atan2(math.sin(angle), math.cos(angle))


def top_down(position: Sequence[float], yaw: float) -> dict:
    """Tool pointing down (tool z = -world z), turned by `yaw`: q = Rz(yaw) * Rx(pi)."""
    return {"x": float(position[0]), "y": float(position[1]), "z": float(position[2]),
            "qx": math.cos(yaw / 2.0), "qy": math.sin(yaw / 2.0), "qz": 0.0, "qw": 0.0,
            "frame_id": "world"}


def pick_targets(cube: Vec3, cube_yaw: float, robot_yaw: float, h: Heights = Heights(),
                 table_z: float = TABLE_Z, others: Sequence[Vec3] = ()) -> dict[str, dict]:
    """approach / grasp / lift poses for a cube seen at `cube` (centre) with `cube_yaw`,
    gripped clear of the `others` cubes seen near it (grasp_yaw_clear_of)."""
    yaw = grasp_yaw_clear_of(cube, cube_yaw, robot_yaw, others, h=h)
    x, y, z = cube
    return {"approach_pose": top_down((x, y, z + h.approach), yaw),
            "grasp_pose": top_down((x, y, z + h.grasp), yaw),
            "lift_pose": top_down((x, y, table_z + h.lift), yaw)}


def goal_position(goal_xy: Sequence[float], placed: int, h: Heights = Heights(),
                  table_z: float = TABLE_Z) -> Vec3:
    """Centre of the robot's next cube on its stack."""
    return (float(goal_xy[0]), float(goal_xy[1]), table_z + h.cube / 2.0 + h.cube * placed)


def on_stack(seen: Vec3, goal: Vec3, within: float = 0.03, h: Heights = Heights()) -> bool:
    """Is a cube seen at `seen` on the stack at `goal` (its level's centre)? Within
    `within` of the goal across, and within half a cube of its level's height: a cube
    that fell off the stack lies at least a cube lower, or a cube width aside."""
    across = math.hypot(seen[0] - goal[0], seen[1] - goal[1])
    return across <= within and abs(seen[2] - goal[2]) <= h.cube / 2.0


def knocked_off(placed: dict[str, Vec3 | None], goal_xy: Sequence[float], within: float = 0.03,
                h: Heights = Heights(), table_z: float = TABLE_Z) -> list[str]:
    """Of the cubes a robot has booked on its stack (label -> centre as seen now, None when
    not seen), those seen off it: more than `within` across from the goal (as CubeOnStack
    judges a placement), at no level's height, or on a level another booked cube nearer
    the goal holds (a cube that slid off and leans against the bottom one is at level 0's
    height, but level 0 is taken). A cube not seen is no evidence (the other arm may hide
    the stack), and one that fell down a level onto the goal is still on the stack."""
    holder: dict[int, tuple[float, str]] = {}          # level -> (across, cube) nearest the goal
    knocked = []
    for cube, seen in placed.items():
        if seen is None:
            continue
        level = round((seen[2] - goal_position(goal_xy, 0, h, table_z)[2]) / h.cube)
        if not 0 <= level < len(placed) or not on_stack(seen, goal_position(goal_xy, level, h, table_z), within, h):
            knocked.append(cube)
            continue
        across = math.hypot(seen[0] - goal_xy[0], seen[1] - goal_xy[1])
        if level in holder:
            knocked.append(max(holder[level], (across, cube))[1])
            holder[level] = min(holder[level], (across, cube))
        else:
            holder[level] = (across, cube)
    return [cube for cube in placed if cube in knocked]


def in_hand_offset(cube: Vec3 | None, tool: Vec3, limit: float = 0.04,
                   closing: tuple[float, float] | None = None) -> Vec3:
    """Where the held cube sits relative to the tool (as seen); zero when it is not seen
    or the reading is implausible (more than `limit` off in any axis).

    Along the fingers' `closing` axis (closing_axis(yaw)) the offset is dropped: two
    fingers squeezing a cube centre it there, so a reading says more about the camera
    than about the cube (the near finger hides one face, and the fitted centre shifts
    away from it: 1.5 cm was seen, and the cube it moved fell off a stack)."""
    if cube is None:
        return (0.0, 0.0, 0.0)
    offset = [c - t for c, t in zip(cube, tool)]
    if not all(abs(v) <= limit for v in offset):
        return (0.0, 0.0, 0.0)
    if closing is not None:
        along = offset[0] * closing[0] + offset[1] * closing[1]
        offset[0] -= along * closing[0]
        offset[1] -= along * closing[1]
    return (offset[0], offset[1], offset[2])


def place_targets(goal: Vec3, offset: Vec3, yaw: float, h: Heights = Heights()) -> dict[str, dict]:
    """place approach / place / retract tool poses putting the held cube's centre on `goal`."""
    gx, gy, gz = goal
    tx, ty, tz = gx - offset[0], gy - offset[1], gz - offset[2] + h.place_gap
    return {"place_approach_pose": top_down((tx, ty, gz + h.over_goal), yaw),
            "place_pose": top_down((tx, ty, tz), yaw),
            "retract_pose": top_down((tx, ty, gz + h.over_goal), yaw)}


def yaw_of_pose(pose: dict) -> float:
    """The yaw about world z of a top-down tool pose made by `top_down`."""
    return 2.0 * math.atan2(float(pose.get("qy", 0.0)), float(pose.get("qx", 1.0)))


class SettleWatch:
    """Is a cube at rest? Fed (time, position) samples, it says yes once the samples of
    the last `stable_s` seconds (at least two, spanning `stable_s`) all lie within
    `within` metres of the newest one."""

    def __init__(self, stable_s: float = 0.2, within: float = 0.008):
        self.stable_s, self.within = stable_s, within
        self.samples: list[tuple[float, Vec3]] = []

    def add(self, t: float, position: Vec3) -> None:
        if self.samples and t <= self.samples[-1][0]:
            if t < self.samples[-1][0]:
                self.samples.clear()     # time went backwards (sim reset): start over
            else:
                return                   # the same image again
        self.samples.append((t, position))
        newest = self.samples[-1][0]
        while len(self.samples) > 2 and self.samples[1][0] <= newest - self.stable_s + 1e-9:
            self.samples.pop(0)          # keep one sample older than the window

    @property
    def settled(self) -> bool:
        if len(self.samples) < 2:
            return False
        t_new, p_new = self.samples[-1]
        spans_window = t_new - self.samples[0][0] >= self.stable_s - 1e-9
        return spans_window and all(math.dist(p, p_new) <= self.within for _t, p in self.samples)
