"""ur10_palletizing: a UR10 with a suction tool on a pedestal, a conveyor bringing
KLT-like open bins (about half of them upside down), a flip-station jig, a 3x3 pallet.

Layout (metres, world frame, robot base at the origin on a 0.5 m pedestal):
* conveyor along +x at y=0.8, belt top z=0.55, bins stop with their front at x=0.45;
* pallet centred at (0, -0.8), top z=0.14, nine slots 3 (x) by 3 (y);
* flip-station jig at (-0.75, 0): a plate at z=0.45 with a back wall on its -x side, to
  stand a bin on its side and re-grip it from the other face.
Named fixed poses (slots, pick point, jig) are in `world.landmarks`.
"""
from __future__ import annotations

import math

import pybullet as p

from robot_tasks.sim.conveyor import Conveyor
from robot_tasks.sim.objects import COLORS, SimObject, make_box, make_compound, open_bin_boxes
from robot_tasks.sim.robots import make_ur10
from robot_tasks.sim.scenes import register_scene
from robot_tasks.sim.scenes.common import add_plane, add_scene_camera

BIN_SIZE = (0.30, 0.20, 0.12)
BIN_WALL = 0.008
BIN_MASS = 0.6
BIN_RGBA = (0.2, 0.35, 0.6, 1.0)
PEDESTAL_TOP = 0.5
BELT_Y, BELT_TOP, BELT_WIDTH = 0.8, 0.55, 0.40
BELT_X0, BELT_X1 = -1.6, 0.47
BIN_ENTRY_X, BIN_STOP_X = -1.4, 0.45
PALLET_CENTER, PALLET_SIZE = (0.0, -0.8), (1.0, 0.7, 0.14)
SLOT_DX, SLOT_DY = 0.32, 0.22
JIG_CENTER, JIG_TOP = (-0.75, 0.0), 0.45
BIN_COUNT = 9


def _spawn_bin(world, index: int, x: float, upside_down: bool) -> SimObject:
    z = BELT_TOP + BIN_SIZE[2] / 2 + 0.001
    orn = p.getQuaternionFromEuler([math.pi if upside_down else 0.0, 0.0, 0.0])
    body = make_compound(world.client, open_bin_boxes(BIN_SIZE, BIN_WALL), (x, BELT_Y, z), orn,
                         BIN_MASS, BIN_RGBA, lateral_friction=0.8)
    return world.add_object(SimObject(f"bin_{index}", "bin", body, BIN_SIZE, "blue", BIN_MASS,
                                      (x, BELT_Y, z), orn, {"spawned_upside_down": upside_down},
                                      rgba=BIN_RGBA))


def _add_static(world, name, half, pos, rgba) -> int:
    body = make_box(world.client, half, pos, mass=0.0, rgba=rgba)
    world.static_bodies[name] = body
    return body


@register_scene("ur10_palletizing", "UR10 with suction, conveyor of bins, flip jig, 3x3 pallet")
def build(world, bin_count: int = BIN_COUNT, belt_speed: float = 0.25) -> None:
    cid = world.client
    add_plane(world)
    _add_static(world, "pedestal", (0.2, 0.2, PEDESTAL_TOP / 2), (0, 0, PEDESTAL_TOP / 2), COLORS["dark"])
    make_ur10(world, "ur10", (0.0, 0.0, PEDESTAL_TOP))

    # Conveyor: a belt slab on a frame, and an end stop.
    belt_len = BELT_X1 - BELT_X0
    _add_static(world, "conveyor", (belt_len / 2, BELT_WIDTH / 2, 0.025),
                ((BELT_X0 + BELT_X1) / 2, BELT_Y, BELT_TOP - 0.025), COLORS["dark"])
    _add_static(world, "conveyor_frame", (belt_len / 2, BELT_WIDTH / 2 - 0.03, (BELT_TOP - 0.05) / 2),
                ((BELT_X0 + BELT_X1) / 2, BELT_Y, (BELT_TOP - 0.05) / 2), COLORS["grey"])
    _add_static(world, "conveyor_stop", (0.01, BELT_WIDTH / 2, 0.04),
                (BELT_X1 + 0.01, BELT_Y, BELT_TOP + 0.04), COLORS["yellow"])

    # Pallet (static) and flip-station jig (static compound: plate + back wall + stand).
    px, py = PALLET_CENTER
    _add_static(world, "pallet", tuple(s / 2 for s in PALLET_SIZE), (px, py, PALLET_SIZE[2] / 2), COLORS["wood"])
    jx, jy = JIG_CENTER
    jig = make_compound(cid, [((0.18, 0.18, 0.01), (0, 0, -0.01)),            # plate, top at JIG_TOP
                              ((0.01, 0.18, 0.13), (-0.17, 0, 0.13)),          # back wall (-x side)
                              ((0.12, 0.12, (JIG_TOP - 0.02) / 2), (0, 0, -0.02 - (JIG_TOP - 0.02) / 2))],
                        (jx, jy, JIG_TOP), mass=0.0, rgba=COLORS["orange"])
    world.static_bodies["flip_jig"] = jig

    # Seeded bin sequence: about half upside down.
    rng = world.rng
    flips = rng.permutation([i < bin_count // 2 + int(rng.integers(0, 2)) for i in range(bin_count)])
    flips = [bool(f) for f in flips]

    def spawn(world_, index):
        return _spawn_bin(world_, index, BIN_ENTRY_X, flips[index])

    conveyor = Conveyor(BIN_ENTRY_X, BIN_STOP_X, BELT_Y, BELT_TOP, BELT_WIDTH, belt_speed,
                        spawn=spawn, total=bin_count)
    if bin_count:            # the first bin already waits at the stop, so work starts at once
        _spawn_bin(world, 0, BIN_STOP_X - BIN_SIZE[0] / 2 - 0.002, flips[0])
        conveyor.spawned = 1
    world.add_updater(conveyor)
    world.conveyor = conveyor

    down = p.getQuaternionFromEuler([math.pi, 0, 0])
    slots = {}
    for i, dx in enumerate((-SLOT_DX, 0.0, SLOT_DX)):
        for j, dy in enumerate((SLOT_DY, 0.0, -SLOT_DY)):
            slots[f"pallet_slot_{3 * j + i}"] = ((px + dx, py + dy, PALLET_SIZE[2] + BIN_SIZE[2] / 2), down)
    world.landmarks = {
        **slots,
        "conveyor_pick": ((BIN_STOP_X - BIN_SIZE[0] / 2, BELT_Y, BELT_TOP + BIN_SIZE[2] / 2), down),
        "flip_jig": ((jx, jy, JIG_TOP), (0, 0, 0, 1)),
    }
    # Straight down from 2.6 m, image top = +x: sees the belt's end, the jig and the pallet.
    add_scene_camera(world, position=(0.0, -0.05, 2.6), target=(0.0, -0.05, 0.0), up=(1.0, 0.0, 0.0))
    world.view = {"position": (2.1, -0.5, 1.9), "target": (-0.1, 0.05, 0.4)}
