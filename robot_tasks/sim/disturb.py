"""Disturbances a test or the sim node's perturb service injects mid-task.

* `drag_object`: teleport an object to a pose (someone moved it by hand);
* `drop_held`: make a robot's gripper let go (open fingers / suction off);
* `knock`: an impulse on one object (knock a stack over).
Each returns a short description for logs.
"""
from __future__ import annotations

import math

import numpy as np
import pybullet as p

from robot_tasks.sim.errors import SimError
from robot_tasks.sim.grippers import ParallelGripper, SuctionGripper


def _finite(values, what: str) -> list[float]:
    vals = [float(v) for v in values]
    if not all(math.isfinite(v) for v in vals):
        raise SimError(f"{what} {vals} contains NaN or inf")
    return vals


def drag_object(world, name: str, position, orientation=None) -> str:
    """Move object `name` to `position` (and orientation xyzw, default unchanged), at rest."""
    obj = world.object(name)
    pos = _finite(position, "drag position")
    if len(pos) != 3:
        raise SimError(f"drag position needs 3 numbers, got {len(pos)}")
    cid = world.client
    if orientation is None:
        orientation = p.getBasePositionAndOrientation(obj.body_id, physicsClientId=cid)[1]
    orn = _finite(orientation, "drag orientation")
    if len(orn) != 4 or abs(np.linalg.norm(orn) - 1.0) > 1e-3:
        raise SimError(f"drag orientation must be a unit quaternion (x, y, z, w), got {orn}")
    p.resetBasePositionAndOrientation(obj.body_id, pos, orn, physicsClientId=cid)
    p.resetBaseVelocity(obj.body_id, [0, 0, 0], [0, 0, 0], physicsClientId=cid)
    p.changeDynamics(obj.body_id, -1, activationState=p.ACTIVATION_STATE_WAKE_UP, physicsClientId=cid)
    return f"dragged {name} to {np.round(pos, 3).tolist()}"


def drop_held(world, robot_name: str) -> str:
    """Make robot `robot_name` let go of whatever it holds."""
    gripper = world.robot(robot_name).gripper
    if isinstance(gripper, ParallelGripper):
        held = gripper.state().held_object
        gripper.open()
        return f"{robot_name} opened its fingers" + (f" and dropped {held}" if held else "")
    if isinstance(gripper, SuctionGripper):
        held = gripper.state().attached_object
        gripper.off()
        return f"{robot_name} turned suction off" + (f" and dropped {held}" if held else "")
    raise SimError(f"robot {robot_name} has no gripper")


def knock(world, name: str, impulse=(0.0, 0.3, 0.0)) -> str:
    """Apply an instantaneous impulse (N*s, world frame) to object `name`: dv = J / m."""
    obj = world.object(name)
    j = np.array(_finite(impulse, "impulse"))
    if j.shape != (3,):
        raise SimError(f"impulse needs 3 numbers, got {j.size}")
    cid = world.client
    mass = p.getDynamicsInfo(obj.body_id, -1, physicsClientId=cid)[0]
    if mass <= 0:
        raise SimError(f"object {name} is static and cannot be knocked")
    p.changeDynamics(obj.body_id, -1, activationState=p.ACTIVATION_STATE_WAKE_UP, physicsClientId=cid)
    lin, ang = p.getBaseVelocity(obj.body_id, physicsClientId=cid)
    p.resetBaseVelocity(obj.body_id, (np.array(lin) + j / mass).tolist(), ang, physicsClientId=cid)
    return f"knocked {name} with impulse {np.round(j, 3).tolist()} N*s"
