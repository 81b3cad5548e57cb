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
    shell.set_pose_target(Pose(...))                     # or law.set_command(...) directly

Targets, the way a cartesian controller takes them (FZI's cartesian_controllers, ros2
branch: cartesian_compliance_controller = a `target_frame` pose, a `target_wrench` and a
stiffness, all in the robot's base frame here): `set_pose_target`, `set_wrench_target`,
`set_stiffness` keep the latest of each and lay them out as the law's command in its task
frame (robot_tasks.control.compliance). A law that renders no wrench of its own (the
pose-only operational-space controller) gets the target wrench added as a feed-forward
τ += Jᵀ w, the superposition FZI's compliance controller makes of target and sensed
wrenches. A joint impedance law takes joint positions (`set_joint_target`).
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pybullet as p

from robot_tasks.control.compliance import ArmDynamics, ArmState
from robot_tasks.control.compliance.gains import gain_vector
from robot_tasks.control.compliance.task_frame import rotate_twist
from robot_tasks.control.errors import ControlError
from robot_tasks.control.kinematics import ArmKinematics
from robot_tasks.control.pose import Pose
from robot_tasks.sim.errors import CommandRejected, SimError
from robot_tasks.sim.torque import TorqueMotors

MIN_TORQUE_RATE = 500.0   # Hz: a torque loop runs at least this fast (real arms: 1 kHz)
COMPLIANCE_TYPE = "cartesian_compliance_controller/CartesianComplianceController"
#: no open-source ros2_control controller renders joint impedance from joint targets on an
#: effort interface (franka_example_controllers' JointImpedanceExampleController runs a fixed
#: motion and takes no command): a real cell supplies one under this name
JOINT_IMPEDANCE_TYPE = "robot_tasks/JointImpedanceController"


def controller_type_of(law) -> str:
    """What list_controllers calls a law: a cartesian law is commanded like FZI's
    cartesian_compliance_controller; a joint impedance law has no upstream equivalent."""
    return COMPLIANCE_TYPE if hasattr(law, "target_types") else JOINT_IMPEDANCE_TYPE


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
        self.cartesian = hasattr(law, "target_types")
        self._pose: Pose | None = None            # targets in the base frame (None: hold)
        self._wrench = np.zeros(6)
        self._feedforward: np.ndarray | None = None
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
        self._pose, self._wrench, self._feedforward = None, np.zeros(6), None
        self._tare_pending = self.sensor is not None and tare
        if self._tare_pending and self.robot.world.physics_step_count > 0:
            self.sensor.tare()
            self._tare_pending = False
        self.active = True

    def deactivate(self) -> None:
        self.active = False
        self.motors.disengage()

    # --- targets (a cartesian controller's target_frame / target_wrench / stiffness) -------
    def tip_pose(self) -> Pose:
        """The measured tool pose in the base frame (forward kinematics of the encoders)."""
        return self.law.dynamics.kinematics.fk(self.motors.read()[0])

    def tip_twist(self) -> np.ndarray:
        """The measured tool twist (linear; angular) in base axes: J(q) q̇."""
        q, dq = self.motors.read()
        return self.law.dynamics.kinematics.jacobian(q) @ dq

    @property
    def stiffness(self) -> np.ndarray:
        return np.asarray(self.law.stiffness, float)

    def set_pose_target(self, pose: Pose) -> None:
        """The tool pose to pull towards, in the base frame (CommandRejected if the law refuses)."""
        self._require_cartesian()
        self._send(pose, self._wrench)

    def set_wrench_target(self, wrench) -> None:
        """The wrench the tool should exert on the environment, base axes, about the tool."""
        self._require_cartesian()
        self._send(self._pose, np.asarray(wrench, float))

    def set_stiffness(self, values) -> None:
        """Six stiffnesses (x y z rx ry rz in the law's task frame) within the law's limits."""
        self._require_cartesian()
        law = self.law
        try:
            law.stiffness = gain_vector(values, 6, "stiffness", law.stiffness_limits)
        except ControlError as err:
            raise CommandRejected(str(err)) from None
        if self._pose is not None and law.mode != "fixed":
            self._send(self._pose, self._wrench)

    def set_joint_target(self, positions) -> None:
        """Joint positions for a joint impedance law (its own gains)."""
        if self.cartesian:
            raise CommandRejected(f"'{self.name}' takes cartesian targets, not joint positions")
        law = self.law
        command = np.asarray(positions, float)
        if law.mode != "fixed":
            command = np.concatenate([command, law.stiffness] +
                                     ([law.damping_ratio] if law.mode == "variable" else []))
        try:
            law.set_command(command)
        except ControlError as err:
            raise CommandRejected(str(err)) from None

    def _require_cartesian(self) -> None:
        if not self.cartesian:
            raise CommandRejected(f"'{self.name}' takes joint positions, not cartesian targets")

    def _send(self, pose: Pose | None, wrench: np.ndarray) -> None:
        """Lay the targets out as the law's command (its task frame, its impedance mode)."""
        law = self.law
        if pose is None:
            pose = law.pose_target if law.pose_target is not None else self.tip_pose()
        frame = law.task_frame
        parts = []
        for name in law.target_types:
            if name == "pose_abs":
                local = Pose.from_se3(frame.to_se3().inverse() * pose.to_se3())
                parts += [local.position, local.quaternion]
            elif name == "wrench_abs":
                parts.append(rotate_twist(frame.rotation.T, wrench))
            else:
                raise CommandRejected(f"'{self.name}': target type '{name}' cannot be commanded "
                                      "with a target pose")
        if law.mode != "fixed":
            parts.append(law.stiffness)
        if law.mode == "variable":
            parts.append(law.damping_ratio)
        try:
            law.set_command(np.concatenate(parts))
        except ControlError as err:
            raise CommandRejected(str(err)) from None
        self._pose, self._wrench = pose, wrench
        renders_wrench = "wrench_abs" in law.target_types
        self._feedforward = None if renders_wrench or not wrench.any() else wrench.copy()

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
        tau = self.law.compute(self.last_state)
        if self._feedforward is not None:         # a wrench the law does not render itself
            tau = tau + self.law.dynamics.kinematics.jacobian(q).T @ self._feedforward
        self.motors.apply(tau)
