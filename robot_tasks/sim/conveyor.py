"""A kinematic conveyor belt that carries bins to a stop at its end.

The belt itself is a static box; before each step the Conveyor sets the x velocity of
every bin resting on it (as a belt would drag it), queues bins behind each other with
a gap, and stops them at the far end.  New bins enter at the start, one at a time, from
the scene's seeded list, so the same seed always delivers the same sequence.

Bins on the belt may not sleep (a sleeping body ignores velocity changes); once a bin
has stood still for `SLEEP_AFTER` seconds, or has left the belt, sleeping is allowed
again, because compound bins are the most expensive bodies in the scene.

Like a PLC-driven belt it can be paused (`running = False`): bins on it keep still
(their x velocity is set to zero, as a stopped belt's friction would hold them) and no
new bin enters until it runs again. The sim wires `running` to a UR digital output, as a
belt's PLC is wired to a robot (robot_tasks/nodes/sim/ur_io.py: `set_io` switches it).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable

import pybullet as p

_DISABLE = p.ACTIVATION_STATE_DISABLE_SLEEPING
_ENABLE = p.ACTIVATION_STATE_ENABLE_SLEEPING


@dataclass
class Conveyor:
    x_start: float            # where bins enter (their centre x)
    x_stop: float             # the front edge of the lead bin stops here
    y: float                  # belt centre line
    top_z: float              # belt surface height
    width: float
    speed: float = 0.2        # m/s along +x
    gap: float = 0.04         # spacing kept between queued bins
    spawn: Callable | None = None   # spawn(world, index) -> SimObject; index 0, 1, ...
    total: int = 0            # how many bins to deliver in all
    spawned: int = 0
    running: bool = True      # False: the belt is paused (bins held still, none enter)
    _still_since: dict = field(default_factory=dict)
    _awake: set = field(default_factory=set)

    SLEEP_AFTER = 0.5

    def bins_on_belt(self, world) -> list[tuple[float, object]]:
        """(x, object) of each bin resting on the belt, lead bin (largest x) first."""
        cid, held = world.client, world.held_bodies
        found = []
        for obj in world.objects.values():
            if obj.label != "bin" or obj.body_id in held:
                continue
            (x, y, z), _ = p.getBasePositionAndOrientation(obj.body_id, physicsClientId=cid)
            bottom = z - obj.size[2] / 2
            if (self.x_start - obj.size[0] <= x <= self.x_stop + 0.05 and abs(y - self.y) <= self.width / 2
                    and self.top_z - 0.01 <= bottom <= self.top_z + 0.02):
                found.append((x, obj))
        found.sort(key=lambda item: -item[0])
        return found

    def __call__(self, world) -> None:
        cid = world.client
        on = self.bins_on_belt(world)
        front_limit = self.x_stop
        for x, obj in on:
            body, half = obj.body_id, obj.size[0] / 2
            if not self.running:
                if body not in self._awake:
                    continue                # resting (asleep) already: leave it be
                lin, ang = p.getBaseVelocity(body, physicsClientId=cid)
                p.resetBaseVelocity(body, [0.0, 0.0, lin[2]], ang, physicsClientId=cid)
            elif x + half < front_limit - 0.002:
                if body not in self._awake:
                    self._awake.add(body)
                    p.changeDynamics(body, -1, activationState=_DISABLE, physicsClientId=cid)
                lin, ang = p.getBaseVelocity(body, physicsClientId=cid)
                vx = min(self.speed, (front_limit - (x + half)) / world.time_step)
                p.resetBaseVelocity(body, [vx, 0.0, lin[2]], ang, physicsClientId=cid)
                self._still_since.pop(body, None)
            elif body in self._awake:
                since = self._still_since.setdefault(body, world.time)
                if world.time - since > self.SLEEP_AFTER:
                    self._awake.discard(body)
                    p.changeDynamics(body, -1, activationState=_ENABLE, physicsClientId=cid)
            front_limit = x - half - self.gap
        if len(self._awake) > len(on):           # a bin left the belt: let it sleep again
            still_on = {obj.body_id for _, obj in on}
            for body in self._awake - still_on:
                self._awake.discard(body)
                p.changeDynamics(body, -1, activationState=_ENABLE, physicsClientId=cid)
        self._maybe_spawn(world, on)

    def _maybe_spawn(self, world, on) -> None:
        if self.spawn is None or self.spawned >= self.total or not self.running:
            return
        if on and on[-1][0] - on[-1][1].size[0] / 2 < self.x_start + 0.25:
            return          # the entry is not clear yet
        self.spawn(world, self.spawned)
        self.spawned += 1
