"""The pick-and-place demo episode, PICK_PLACE: what the episode runner needs to run it.

    robot-tasks demo franka_pick_place --seed 3 --disturb drag --out runs/

The runner (robot_tasks/demo/runner.py) starts config/franka_pick_place.yaml's nodes,
sends the FrankaPickPlace goal with this task's payload, prints each phase, disturbs and
grades. Everything here is plain data or a pure function, so the task package holds its
own episode without importing the runner (the layers point inwards):

- the payload: `{"target": "x;y"}`, the target point of the episode's seed, from the
  scene's own `target_for_seed` -- the scene draws its marker there, the tree is told it;
- the phases (the tree's motion and gripper nodes) and the recoveries (node statuses that
  mean the tree noticed something and acts on it);
- `DragRule`: with --disturb drag, the cube is dragged 12+ cm while the arm comes for it;
- `grade`: the sim's ground truth at the end -- the cube on the table at the target.

Ground truth only grades the run and places the disturbance; it never steers the tree.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import ClassVar

from robot_tasks.robots import TABLE_TOP_Z
from robot_tasks.sim.scenes.common import CUBE_SIZE
from robot_tasks.sim.scenes.franka_pick_place import CUBE_NAME, TARGET_NAME, target_for_seed
from robot_tasks.tasks.episode import SENT_TRAJECTORY_TOPIC, DemoTask, DisturbanceRule
from robot_tasks.tasks.table_spots import free_spot
from robot_tasks.tasks.world_view import axes_of_quaternion

TREE_ID = "FrankaPickPlace"
PHASES = ("pre_grasp", "approach", "grasp", "lift", "transport", "lower", "release", "retract")
RECOVERIES = {("pickup_resync", "FAILURE"): "pickup resync: the cube moved, looking again",
              ("verify_placement", "FAILURE"): "placement check: the cube is not on the target, picking it again"}
MODES = ("drag",)

# ---- the disturbance ---------------------------------------------------------------------
# Sim seconds after the arm starts for the pre-grasp pose: it is then on its way (a planned
# move from home takes a few seconds), the moment "mid-approach" asks for.
DRAG_DELAY_S = 0.5
# The cube goes at least this far [m], from where it is and from the target: more than
# twice the tree's 5 cm resync threshold, and never onto (or next to) its own goal.
DRAG_CLEARANCE = 0.12


@dataclass
class DragRule(DisturbanceRule):
    """Drags the cube once, DRAG_DELAY_S after the first pre-grasp starts (nothing placed yet).

    The runner calls `on_phase_start` as phases start and `due` in its loop; `due` returns
    the sim's PerturbObject request ({object_name, mode, target xyz}) once, then None.
    """

    task: ClassVar[str] = "franka_pick_place"
    modes: ClassVar[tuple[str, ...]] = MODES
    mode: str = "drag"
    delay_s: float = DRAG_DELAY_S
    armed_at: float | None = None

    def on_phase_start(self, phase: str, placed: int, now: float) -> None:
        """A phase started; `placed` = releases so far."""
        if self.armed_at is None and not self.fired and phase == "pre_grasp" and placed == 0:
            self.armed_at = now
            self.log.append(f"armed at {phase} with {placed} placed")

    def due(self, now: float, poses: dict[str, tuple]) -> dict | None:
        """The request to send now, or None; `poses` is the ground truth {name: (xyz, xyzw)}."""
        if self.fired or self.armed_at is None or now - self.armed_at < self.delay_s:
            return None
        self.fired = True
        cube, target = poses.get(CUBE_NAME), poses.get(TARGET_NAME)
        if cube is None or target is None:
            self.log.append(f"{CUBE_NAME} or {TARGET_NAME} not in the ground truth: nothing to do")
            return None
        here = cube[0]
        spot = free_spot([target[0]], here, clearance=DRAG_CLEARANCE)
        if spot is None:
            self.log.append("no free spot to drag to")
            return None
        self.log.append(f"drag {CUBE_NAME} from ({here[0]:.3f}, {here[1]:.3f}) to ({spot[0]:.3f}, {spot[1]:.3f})")
        return {"object_name": CUBE_NAME, "mode": "DRAG", "target": (spot[0], spot[1], here[2])}


def make_rule(mode: str) -> DragRule:
    return DragRule(mode)


# ---- the grade -----------------------------------------------------------------------------
# Placed means: the target point lies well inside the cube's footprint and the cube rests on
# the table. 2 cm sideways leaves the point 5 mm inside a 5 cm cube's faces (half an edge is
# 2.5 cm, where the point would be on its edge); the tree itself re-places a cube it sees
# more than 1.5 cm off (plan.ON_TARGET_DISTANCE), so perception's error has 5 mm of room.
XY_TOLERANCE = 0.02
# Resting on the table: the centre half an edge above the top (a cube on anything else, or on
# an edge, is higher) and a face down (the most upright axis within 5 degrees of vertical).
REST_Z = TABLE_TOP_Z + CUBE_SIZE / 2.0
Z_TOLERANCE = 0.005
MAX_TILT_DEG = 5.0


def judge_placement(cube_pose: tuple, target_xy) -> dict:
    """One row: where the cube is, how far from the target and the table, and `ok`."""
    (x, y, z), quaternion = cube_pose
    tilt = math.degrees(math.acos(min(1.0, max(abs(axis[2]) for axis in axes_of_quaternion(*quaternion)))))
    xy_offset = math.hypot(x - target_xy[0], y - target_xy[1])
    z_offset = z - REST_Z
    ok = xy_offset <= XY_TOLERANCE and abs(z_offset) <= Z_TOLERANCE and tilt <= MAX_TILT_DEG
    return {"cube": CUBE_NAME, "position": [round(float(v), 4) for v in (x, y, z)],
            "target": [round(float(v), 4) for v in target_xy[:2]], "xy_offset": round(xy_offset, 4),
            "z_offset": round(z_offset, 4), "tilt_deg": round(tilt, 2), "ok": bool(ok)}


def grade(poses: dict, _first_poses: dict, _counted: list):
    """(items key, rows, all ok, summary) on the sim's final poses."""
    if CUBE_NAME not in poses or TARGET_NAME not in poses:
        row = {"cube": CUBE_NAME, "ok": False, "reason": f"{CUBE_NAME} or {TARGET_NAME} not in the sim's objects"}
        return "cubes", [row], False, row["reason"]
    row = judge_placement(poses[CUBE_NAME], poses[TARGET_NAME][0])
    summary = (f"{CUBE_NAME} {'on' if row['ok'] else 'NOT on'} the target: {row['xy_offset'] * 100:.1f} cm off, "
               f"{row['z_offset'] * 1000:+.0f} mm, tilt {row['tilt_deg']:.1f} deg")
    return "cubes", [row], row["ok"], summary


def payload(options) -> dict:
    """The goal's payload: the target point of this episode's seed."""
    x, y = target_for_seed(options.seed)
    return {"target": f"{x:.4f};{y:.4f}"}


PICK_PLACE = DemoTask(name="franka_pick_place", tree_id=TREE_ID, phases=PHASES, counted="release",
                      counted_as="placed", recoveries=RECOVERIES, make_rule=make_rule, grade=grade,
                      payload=payload, bag_topics=(SENT_TRAJECTORY_TOPIC,))
