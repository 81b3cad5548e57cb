"""A compliant (torque-level) controller running inside the sim's physics loop.

ros2_control runs an impedance or operational-space controller next to the hardware: every
control period it reads the joint state (and a force/torque sensor), computes joint torques
and writes them to the drives. `CompliantController` is that thin real-time shell around a
control law from `robot_tasks.control.compliance`: it registers a physics hook with the
World, so the law runs before *every* physics sub-step (World.physics_rate, >= 500 Hz), and
it reads only what a real arm measures — `TorqueMotors.read()` (encoders) and the optional
`ForceTorqueSensor` — never ground truth.

    dynamics = arm_dynamics(robot)                       # Pinocchio, from robot_description
    law = OperationalSpaceController(cfg, dynamics)
    shell = add_compliant_controller(robot, "osc", law, sensor)   # inactive until switched
    robot.controllers.switch("osc")                      # releases the position motors
    law.set_command(...)                                 # any time, from the caller's loop
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pybullet as p

from robot_tasks.control.compliance import ArmDynamics, ArmState
from robot_tasks.control.kinematics import ArmKinematics
from robot_tasks.sim.errors import SimError
from robot_tasks.sim.torque import TorqueMotors

MIN_TORQUE_RATE = 500.0   # Hz: a torque loop runs at least this fast (real arms: 1 kHz)


@dataclass(frozen=True)
class CompliantState:
    """What a compliant controller reports (a controller_state topic's content)."""

    name: str
    active: bool
    joint_names: list
    torque: list            # N·m applied in the last physics step (after the effort limits)
    wrench: list | None     # measured tool-on-environment wrench, base axes, about the TCP
    physics_rate: float     # Hz, the rate the law runs at


def arm_dynamics(robot) -> ArmDynamics:
    """Pinocchio dynamics of the robot's arm to its end-effector link, from robot_description.

    Joints outside the arm (fingers) are frozen at their current measured positions.
    """
    base = p.getBodyInfo(robot.body_id, physicsClientId=robot.world.client)[0].decode()
    others = [n for n in robot.joint_names if n not in robot.arm_joint_names]
    locked = robot.joint_states(others).as_dict() if others else {}
    kinematics = ArmKinematics.from_urdf_string(robot.robot_description, robot.ee_link,
                                                robot.arm_joint_names, base, locked,
                                                source=f"{robot.name} robot_description")
    return ArmDynamics(kinematics)


class CompliantController:
    """Runs `law.compute(ArmState)` -> torques at the physics rate while active."""

    def __init__(self, robot, name: str, law, sensor=None):
        world = robot.world
        if world.physics_rate < MIN_TORQUE_RATE:
            raise SimError(f"compliant controller '{name}' needs physics at >= "
                           f"{MIN_TORQUE_RATE:g} Hz; the world steps at {world.physics_rate:g} Hz "
                           "(use World(time_step=..., physics_substeps=...))")
        names = getattr(getattr(law, "dynamics", None), "kinematics", None)
        if names is not None and list(names.joint_names) != list(robot.arm_joint_names):
            raise SimError(f"controller '{name}' joints {list(names.joint_names)} are not the "
                           f"arm joints {robot.arm_joint_names}")
        self.robot, self.name, self.law, self.sensor = robot, name, law, sensor
        self.motors = TorqueMotors(robot)
        self.active = False
        self._tare_pending = False
        self.last_state: ArmState | None = None
        world.add_physics_hook(self._control_step)

    def activate(self, tare: bool = True) -> None:
        """Take the arm: release the motors, tare the sensor, hold where the arm is now
        (the law forgets any target of an earlier activation: `law.hold_here()`).

        The tare is the sensor's reading from the last physics step, made while the previous
        controller held the arm still and the tool touched nothing. PyBullet updates a
        joint's reaction wrench only in a physics step, so in a world that has not stepped
        yet the tare waits for the first step under this controller (and the law is told
        "no contact", a zero wrench, for that one step). After a teleport, step once first.
        `tare=False` keeps the sensor's tare (a hand-over between torque controllers, maybe
        in contact).
        """
        self.motors.release()
        self.law.hold_here()          # a target left from an earlier activation must not pull
        self._tare_pending = self.sensor is not None and tare
        if self._tare_pending and self.robot.world.physics_step_count > 0:
            self.sensor.tare()
            self._tare_pending = False
        self.active = True

    def deactivate(self) -> None:
        self.active = False
        self.motors.disengage()

    def state(self) -> CompliantState:
        wrench = None
        if self.last_state is not None and self.last_state.wrench is not None:
            wrench = np.asarray(self.last_state.wrench).tolist()
        return CompliantState(self.name, self.active, list(self.motors.joint_names),
                              self.motors.applied.tolist(), wrench, self.robot.world.physics_rate)

    def _measured_wrench(self):
        if self.sensor is None:
            return None
        if self._tare_pending:
            if self.robot.world.physics_step_count == 0:
                return np.zeros(6)
            self.sensor.tare()
            self._tare_pending = False
        return self.sensor.contact_wrench()

    def _control_step(self, now: float) -> None:
        if not self.active:
            return
        q, dq = self.motors.read()
        wrench = self._measured_wrench()
        self.last_state = ArmState(q, dq, wrench)
        self.motors.apply(self.law.compute(self.last_state))
