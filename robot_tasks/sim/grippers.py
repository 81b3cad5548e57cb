"""Grippers: the Panda's parallel fingers and a suction cup for the UR10.

Both take commands at any time and report their state; their `update()` runs before
every physics step (the World calls it).
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import pybullet as p

from robot_tasks.sim.errors import CommandRejected


@dataclass(frozen=True)
class ParallelGripperState:
    width: float               # measured distance between the fingers (m)
    commanded_width: float
    max_effort: float          # force limit per finger (N)
    object_stopped: bool       # an object between both fingers keeps them wider than commanded
    held_object: str           # name of that object ("" if none)


class ParallelGripper:
    """Two prismatic fingers commanded together by width, with a force limit.

    PyBullet ignores URDF <mimic>, so both fingers get the same target (width/2 each), and
    a gear constraint couples them as the Franka Hand's mechanism does (one drive, both
    fingers mirrored): without it the two force-limited fingers float as a pair, and a held
    cube drifts a centimetre along the closing axis while the arm carries it.  Position mode is
    `command(width, max_effort)`; effort mode is `grasp(max_effort)`, which closes
    fully and lets the force limit decide where the fingers stop.

    Force hold is `command(width, max_effort, force_hold=True)`: the fingers close under
    position control until an object stops them, then each is force-controlled, pushing
    inwards with exactly `max_effort` N (a velocity motor toward closed whose force limit
    is that force; blocked, it applies all of it) until the next command. Position control
    would ease off as the fingers creep toward the target; the held force does not.
    With `record_steps` on, `step_record()` gives the last step's commanded finger
    positions, the positions measured just before, what went to the motors and the mode
    ("position" / "force").
    """

    CLOSING_SPEED = 0.05  # m/s: the force-controlled fingers' velocity target (never reached while blocked)

    STOP_MARGIN = 0.002   # fingers held this much wider than commanded count as "stopped"
    MAX_EFFORT = 140.0    # N per finger accepted at most (the Franka Hand's peak force)

    def __init__(self, robot, finger_joints=("panda_finger_joint1", "panda_finger_joint2"),
                 default_effort: float = 20.0):
        self.robot = robot
        self.finger_joints = list(finger_joints)
        self._idx = robot.indices(self.finger_joints)
        self.max_width = 2.0 * robot.limits[self.finger_joints[0]].upper
        self.effort_limit = self.MAX_EFFORT
        self.default_effort = float(default_effort)
        self.commanded_width = self.max_width
        self.max_effort = self.default_effort
        self.force_hold = False     # the last command asked for a force hold
        self.force_mode = False     # ... and an object stopped the fingers: force-controlled now
        self._feedback = [0.0, 0.0]
        self.record_steps = False
        self._couple_fingers()
        self.command(self.max_width)

    def _couple_fingers(self) -> None:
        """finger 2 mirrors finger 1 (gear ratio -1), as in pybullet's own Panda example."""
        cid = self.robot.world.client
        gear = p.createConstraint(self.robot.body_id, self._idx[0], self.robot.body_id, self._idx[1],
                                  jointType=p.JOINT_GEAR, jointAxis=[1, 0, 0], parentFramePosition=[0, 0, 0],
                                  childFramePosition=[0, 0, 0], physicsClientId=cid)
        p.changeConstraint(gear, gearRatio=-1, erp=0.1, maxForce=50, physicsClientId=cid)

    def command(self, width: float, max_effort: float | None = None, force_hold: bool = False,
                speed: float | None = None) -> None:
        """Move the fingers to `width` metres apart, each pushing at most `max_effort` N;
        with `force_hold`, switch to pushing with max_effort once an object stops them;
        `speed` (m/s of width, None = as fast as the motors go) limits how fast they move."""
        effort = self.default_effort if max_effort is None else max_effort
        if not (math.isfinite(width) and math.isfinite(effort)):
            raise CommandRejected(f"gripper width {width} / effort {effort} must be finite numbers")
        if not -1e-6 <= width <= self.max_width + 1e-6:
            raise CommandRejected(f"gripper width {width:.4f} outside [0, {self.max_width:.4f}] m")
        if not 0.0 < effort <= self.effort_limit:
            raise CommandRejected(f"gripper effort {effort} outside (0, {self.effort_limit}] N")
        if speed is not None and not (math.isfinite(speed) and speed > 0.0):
            raise CommandRejected(f"gripper speed {speed} must be a positive finite number")
        self.commanded_width = float(min(max(width, 0.0), self.max_width))
        self.max_effort = float(effort)
        self.force_hold, self.force_mode = bool(force_hold), False
        half = self.commanded_width / 2.0
        cid = self.robot.world.client
        if speed is None:
            p.setJointMotorControlArray(self.robot.body_id, self._idx, p.POSITION_CONTROL,
                                        targetPositions=[half, half], forces=[effort, effort],
                                        physicsClientId=cid)
            return
        for joint in self._idx:        # each finger moves half the width: speed / 2
            p.setJointMotorControl2(self.robot.body_id, joint, p.POSITION_CONTROL, targetPosition=half,
                                    force=effort, maxVelocity=speed / 2.0, physicsClientId=cid)

    def open(self, max_effort: float | None = None) -> None:
        self.command(self.max_width, max_effort)

    def grasp(self, max_effort: float | None = None) -> None:
        """Effort mode: close until an object (or the other finger) stops the fingers."""
        self.command(0.0, max_effort)

    def release(self) -> None:
        self.open()

    def update(self, now: float) -> None:
        """Before each physics step: read the fingers; a force hold whose fingers an object
        stopped switches to force control (PyBullet keeps the motor targets otherwise)."""
        waiting = self.force_hold and not self.force_mode
        if not (waiting or self.record_steps):
            return
        states = p.getJointStates(self.robot.body_id, self._idx, physicsClientId=self.robot.world.client)
        self._feedback = [states[0][0], states[1][0]]
        if waiting and self._object_stops_fingers(sum(self._feedback)):
            self.force_mode = True
            effort = self.max_effort
            p.setJointMotorControlArray(self.robot.body_id, self._idx, p.VELOCITY_CONTROL,
                                        targetVelocities=[-self.CLOSING_SPEED] * 2, forces=[effort, effort],
                                        physicsClientId=self.robot.world.client)

    def _object_stops_fingers(self, width: float) -> bool:
        """A scene object (not the table) between both fingers holds them open."""
        if width <= self.commanded_width + self.STOP_MARGIN:
            return False
        body = self.held_body()
        return body is not None and self.robot.world.object_for_body(body) is not None

    def step_record(self) -> tuple[list, list, list, str]:
        """(reference, feedback, output, mode) of the last step: commanded finger positions,
        positions measured just before, motor targets (m) or pushing forces (N, closing < 0)."""
        half = self.commanded_width / 2.0
        if self.force_mode:
            return [half, half], list(self._feedback), [-self.max_effort] * 2, "force"
        return [half, half], list(self._feedback), [half, half], "position"

    def width(self) -> float:
        states = p.getJointStates(self.robot.body_id, self._idx, physicsClientId=self.robot.world.client)
        return float(states[0][0] + states[1][0])

    def held_body(self) -> int | None:
        """The body touching both fingers, or None."""
        cid, body = self.robot.world.client, self.robot.body_id
        touching = []
        for j in self._idx:
            touching.append({c[2] for c in p.getContactPoints(bodyA=body, linkIndexA=j, physicsClientId=cid)
                             if c[2] != body})
        common = touching[0] & touching[1]
        return min(common) if common else None

    def state(self) -> ParallelGripperState:
        width = self.width()
        body = self.held_body()
        stopped = body is not None and width > self.commanded_width + self.STOP_MARGIN
        obj = self.robot.world.object_for_body(body) if body is not None else None
        return ParallelGripperState(width, self.commanded_width, self.max_effort, stopped,
                                    obj.name if (obj is not None and stopped) else "")


@dataclass(frozen=True)
class SuctionState:
    enabled: bool
    attached_object: str      # name of the attached object ("" if none)
    max_force: float


class SuctionGripper:
    """A suction cup on a robot link: grabs the first object it touches while on.

    On contact a fixed constraint ties the object to the cup at their current relative
    pose; the constraint's maxForce is the suction force limit, so an object too heavy
    for it sags away, and once it drifts `DETACH_DISTANCE` from where it was gripped it
    counts as lost.  Turning suction off removes the constraint (the object falls).
    """

    DETACH_DISTANCE = 0.02

    def __init__(self, robot, cup_link: str = "suction_cup", max_force: float = 300.0):
        self.robot = robot
        self.cup_link = cup_link
        self.cup_index = robot.link_index(cup_link)
        self.max_force = float(max_force)
        self.enabled = False
        self._constraint: int | None = None
        self._attached_body: int | None = None
        self._grip_offset = None   # object position in the cup frame when gripped

    def on(self) -> None:
        self.enabled = True

    def off(self) -> None:
        self.enabled = False
        self._detach()

    release = off

    def set_max_force(self, force: float) -> None:
        if not (math.isfinite(force) and force > 0):
            raise CommandRejected(f"suction max force {force} must be a positive finite number")
        self.max_force = float(force)
        if self._constraint is not None:
            p.changeConstraint(self._constraint, maxForce=self.max_force, physicsClientId=self.robot.world.client)

    def update(self, now: float) -> None:
        if not self.enabled:
            return
        if self._constraint is None:
            self._try_attach()
        else:
            self._check_drift()

    def state(self) -> SuctionState:
        obj = self.robot.world.object_for_body(self._attached_body) if self._attached_body is not None else None
        return SuctionState(self.enabled, obj.name if obj else "", self.max_force)

    # --- internals --------------------------------------------------------------
    def _cup_pose(self):
        # The cup's centre-of-mass frame: createConstraint measures the parent frame from it.
        st = p.getLinkState(self.robot.body_id, self.cup_index, computeForwardKinematics=True,
                            physicsClientId=self.robot.world.client)
        return st[0], st[1]

    def _try_attach(self) -> None:
        world, cid = self.robot.world, self.robot.world.client
        for c in p.getContactPoints(bodyA=self.robot.body_id, linkIndexA=self.cup_index, physicsClientId=cid):
            body = c[2]
            if body == self.robot.body_id or world.object_for_body(body) is None:
                continue    # only scene objects, never the table or the robot itself
            cup_pos, cup_orn = self._cup_pose()
            obj_pos, obj_orn = p.getBasePositionAndOrientation(body, physicsClientId=cid)
            inv_pos, inv_orn = p.invertTransform(cup_pos, cup_orn)
            rel_pos, rel_orn = p.multiplyTransforms(inv_pos, inv_orn, obj_pos, obj_orn)
            self._constraint = p.createConstraint(
                self.robot.body_id, self.cup_index, body, -1, p.JOINT_FIXED, [0, 0, 0],
                rel_pos, [0, 0, 0], rel_orn, [0, 0, 0, 1], physicsClientId=cid)
            p.changeConstraint(self._constraint, maxForce=self.max_force, physicsClientId=cid)
            self._attached_body = body
            self._grip_offset = np.array(rel_pos)
            world.held_bodies.add(body)
            return

    def _check_drift(self) -> None:
        cid = self.robot.world.client
        cup_pos, cup_orn = self._cup_pose()
        obj_pos, _ = p.getBasePositionAndOrientation(self._attached_body, physicsClientId=cid)
        inv_pos, inv_orn = p.invertTransform(cup_pos, cup_orn)
        rel_pos, _ = p.multiplyTransforms(inv_pos, inv_orn, obj_pos, (0, 0, 0, 1))
        if np.linalg.norm(np.array(rel_pos) - self._grip_offset) > self.DETACH_DISTANCE:
            self._detach()          # too heavy for the suction force: the object is lost

    def _detach(self) -> None:
        if self._constraint is not None:
            p.removeConstraint(self._constraint, physicsClientId=self.robot.world.client)
            self.robot.world.held_bodies.discard(self._attached_body)
        self._constraint = None
        self._attached_body = None
        self._grip_offset = None
