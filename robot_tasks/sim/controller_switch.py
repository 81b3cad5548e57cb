"""Which controllers drive the arm — what ros2_control's controller_manager keeps, in the sim.

A ros2_control arm has *controllers*, each claiming the joints' command interfaces
(`panda_joint1/effort`, `shoulder_pan_joint/position`, ...) while it is active; two active
controllers never claim the same interface, so one controller at a time drives the arm.
`ControllerSwitch` is that bookkeeping for one simulated arm, and `apply()` is what a
switch does to the arm:

- the joint trajectory controller `joint_trajectory_controller` (type
  joint_trajectory_controller/JointTrajectoryController), active from the start, as a
  bringup spawns it. Deactivated, it ends its trajectory (a FollowJointTrajectory goal
  aborts), holds the measured position and refuses new trajectories
  (`JointTrajectoryController.enabled` is False); activated, it holds the measured position;
- the compliant (torque) controllers of `add_compliant_controller` (robot_tasks.sim.compliant),
  inactive until switched. Activated, they release the position motors and hold the pose
  where the arm is; the F/T sensor is tared when the arm comes from position control (held
  still, touching nothing) and keeps its tare when one torque controller hands over to
  another in the same switch (the tool may be in contact: "osc" -> "hybrid_press");
- with no controller active (one deactivated, none activated) the drives hold the measured
  position, as a robot whose controllers all stopped does.

The claimed interface follows the real bringup: a Franka's joint trajectory controller claims
`effort` (franka_ros2 v3.4.0, franka_fr3_moveit_config/config/fr3_ros_controllers.yaml), a
UR's `position` (Universal_Robots_ROS2_Driver kilted, ur_robot_driver/config/
ur_controllers.yaml); the sim's compliant controllers write torques, so they claim `effort`.
Which requests are legal and what the answer says is controller_manager's business:
robot_tasks.sim.controller_manager.
"""
from __future__ import annotations

from dataclasses import dataclass

import pybullet as p

from robot_tasks.sim.errors import UnknownName

TRAJECTORY = "joint_trajectory_controller"
TRAJECTORY_TYPE = "joint_trajectory_controller/JointTrajectoryController"
FRANKA_JOINT_PREFIXES = ("panda_", "fr3_")


def trajectory_command_interface(joint_names) -> str:
    """The interface a real bringup's trajectory controller claims: effort on a Franka, else position."""
    return "effort" if all(n.startswith(FRANKA_JOINT_PREFIXES) for n in joint_names) else "position"


@dataclass(frozen=True)
class ArmController:
    """One controller of the arm as controller_manager lists it."""

    name: str
    type: str
    command_interfaces: tuple      # "<joint>/<interface>": what it claims while active
    state_interfaces: tuple
    active: bool


class ControllerSwitch:
    """The arm's controllers by name and which of them is active."""

    def __init__(self, robot):
        self.robot = robot
        self.compliant: dict = {}                 # name -> CompliantController
        self._types: dict[str, str] = {TRAJECTORY: TRAJECTORY_TYPE}
        self._active: set[str] = {TRAJECTORY}
        self.sensor = None                        # the arm's F/T sensor, if a controller reads one

    # --- what controller_manager lists ------------------------------------------------
    def names(self) -> list[str]:
        return [TRAJECTORY, *self.compliant]

    @property
    def active(self) -> str:
        """The controller driving the arm ("" when none is)."""
        return next(iter(self._active), "")

    def is_active(self, name: str) -> bool:
        return name in self._active

    def command_interfaces(self, name: str) -> tuple:
        joints = self.robot.arm_joint_names
        kind = trajectory_command_interface(joints) if name == TRAJECTORY else "effort"
        return tuple(f"{j}/{kind}" for j in joints)

    def entries(self) -> list[ArmController]:
        states = tuple(f"{j}/{k}" for j in self.robot.arm_joint_names for k in ("position", "velocity"))
        return [ArmController(n, self._types[n], self.command_interfaces(n), states, n in self._active)
                for n in self.names()]

    def current(self):
        """The active compliant controller, or None (the trajectory controller or nothing runs)."""
        return self.compliant.get(self.active)

    # --- building ----------------------------------------------------------------------
    def add(self, controller, controller_type: str):
        if controller.name in self._types:
            raise ValueError(f"controller '{controller.name}' exists already")
        self.compliant[controller.name] = controller
        self._types[controller.name] = controller_type
        if controller.sensor is not None:
            self.sensor = controller.sensor
        return controller

    # --- switching -----------------------------------------------------------------------
    def switch(self, name: str) -> None:
        """Make `name` the only active controller (a library shortcut; no-op if it is)."""
        if name not in self._types:
            raise UnknownName("controller", name, self.names())
        if self._active != {name}:
            self.apply(sorted(self._active - {name}), [] if name in self._active else [name])

    def apply(self, deactivate, activate) -> None:
        """Deactivate, then activate, in one control step (the caller checked the request)."""
        for name in [*deactivate, *activate]:
            if name not in self._types:
                raise UnknownName("controller", name, self.names())
        torque_before = any(n in self.compliant for n in self._active)
        trajectory = self.robot.controller
        for name in deactivate:
            if name == TRAJECTORY:
                trajectory.stop()          # the running trajectory ends; hold the measured pose
                trajectory.enabled = False
            else:
                self.compliant[name].deactivate()
            self._active.discard(name)
        for name in activate:
            if name == TRAJECTORY:
                trajectory.enabled = True
                trajectory.stop()          # JTC's on_activate: hold the measured position
            else:
                trajectory.enabled = False
                self.compliant[name].activate(tare=not torque_before)
            self._active.add(name)
        if not self._active:
            self._hold_measured()

    def _hold_measured(self) -> None:
        """No controller: the drives hold where the arm is (position motors, effort limits)."""
        robot = self.robot
        idx = robot.indices(robot.arm_joint_names)
        states = p.getJointStates(robot.body_id, idx, physicsClientId=robot.world.client)
        forces = [robot.limits[n].effort for n in robot.arm_joint_names]
        p.setJointMotorControlArray(robot.body_id, idx, p.POSITION_CONTROL,
                                    targetPositions=[s[0] for s in states],
                                    targetVelocities=[0.0] * len(idx), forces=forces,
                                    physicsClientId=robot.world.client)


def add_compliant_controller(robot, name: str, law, sensor=None,
                             controller_type: str | None = None):
    """Attach a compliant controller to `robot` (inactive until switched).

    `controller_type` is what list_controllers reports: the type of the real controller a
    cell runs under this name (robot_tasks.sim.compliant.controller_type_of by default).
    """
    from robot_tasks.sim.compliant import CompliantController, controller_type_of

    if robot.controllers is None:
        robot.controllers = ControllerSwitch(robot)
    controller = CompliantController(robot, name, law, sensor)
    return robot.controllers.add(controller, controller_type or controller_type_of(law))
