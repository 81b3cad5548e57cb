"""The `perturb_object` service's logic: robot_tasks_interfaces/PerturbObject on a World.

Modes (the srv's constants):
* DRAG  — teleport the object to `target` (position, and orientation unless the
          quaternion is all zeros), at rest: someone moved it by hand.
* DROP  — whichever gripper holds the object lets go (fingers open / suction off);
          fails if nothing holds it.
* KNOCK — push the object toward `target.position`: an impulse giving it the speed that
          would slide it there against its friction, v = sqrt(2 mu g d) (at most
          KNOCK_MAX_SPEED); a tall object may tumble and stop short, like a real knock.
"""
from __future__ import annotations

import math

import numpy as np
import pybullet as p

from robot_tasks.sim.disturb import drag_object, drop_held, knock
from robot_tasks.sim.errors import SimError
from robot_tasks.sim.grippers import ParallelGripper, SuctionGripper

KNOCK_MAX_SPEED = 3.0   # m/s


def holder_of(world, object_name: str) -> str | None:
    """Name of the robot whose gripper holds `object_name`, or None."""
    for robot in world.robots.values():
        gripper = robot.gripper
        if isinstance(gripper, ParallelGripper) and gripper.state().held_object == object_name:
            return robot.name
        if isinstance(gripper, SuctionGripper) and gripper.state().attached_object == object_name:
            return robot.name
    return None


def perturb(world, object_name: str, mode: str, target) -> tuple[bool, str]:
    """Apply one disturbance; return (success, what was done or why not)."""
    try:
        obj = world.object(object_name)
        position = (target.position.x, target.position.y, target.position.z)
        o = target.orientation
        orientation = (o.x, o.y, o.z, o.w)
        if mode == "DRAG":
            keep = all(v == 0.0 for v in orientation)
            return True, drag_object(world, object_name, position, None if keep else orientation)
        if mode == "DROP":
            robot = holder_of(world, object_name)
            if robot is None:
                return False, f"nothing holds {object_name}, so there is nothing to drop"
            return True, drop_held(world, robot)
        if mode == "KNOCK":
            here = np.array(p.getBasePositionAndOrientation(obj.body_id, physicsClientId=world.client)[0])
            delta = np.array(position, float) - here
            dist = float(np.linalg.norm(delta))
            if not math.isfinite(dist) or dist < 1e-6:
                return False, f"KNOCK needs target.position away from {object_name} (got {position})"
            info = p.getDynamicsInfo(obj.body_id, -1, physicsClientId=world.client)
            mass, friction = info[0], info[1]
            speed = min(math.sqrt(2.0 * max(friction, 0.05) * abs(world.gravity) * dist), KNOCK_MAX_SPEED)
            return True, knock(world, object_name, delta / dist * speed * mass)
        return False, f"unknown mode {mode!r} (use DRAG, DROP or KNOCK)"
    except SimError as err:
        return False, str(err)
