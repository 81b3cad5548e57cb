"""Which controller owns the arm — ros2_control's `switch_controller`, in the sim.

An arm has exactly one active controller: the joint trajectory controller (position motors,
the default) or one of its compliant torque controllers. Switching stops the old one first:

- to a compliant controller: the trajectory controller drops its trajectory and goes
  inactive (it rejects new trajectories), the position motors are released, the compliant
  controller starts holding the current pose; the F/T sensor is tared when the arm comes
  from position control (held still, touching nothing) and keeps its tare when one torque
  controller hands over to another (the tool may be in contact: a guarded approach with
  "osc" handing over to "hybrid_press");
- back to "joint_trajectory": the torque loop stops and the trajectory controller holds the
  measured position with the position motors again.
"""
from __future__ import annotations

from robot_tasks.sim.compliant import CompliantController
from robot_tasks.sim.errors import UnknownName

TRAJECTORY = "joint_trajectory"


class ControllerSwitch:
    """The arm's controllers by name and the one that is active."""

    def __init__(self, robot):
        self.robot = robot
        self.compliant: dict[str, CompliantController] = {}
        self.active = TRAJECTORY

    def names(self) -> list[str]:
        return [TRAJECTORY, *self.compliant]

    def add(self, controller: CompliantController) -> CompliantController:
        self.compliant[controller.name] = controller
        return controller

    def switch(self, name: str) -> None:
        """Make `name` the active controller (no-op if it already is)."""
        if name not in self.names():
            raise UnknownName("controller", name, self.names())
        if name == self.active:
            return
        trajectory = self.robot.controller
        if self.active != TRAJECTORY:
            self.compliant[self.active].deactivate()
        if name == TRAJECTORY:
            trajectory.enabled = True
            trajectory.stop()            # position motors hold the measured pose
        else:
            from_position_control = self.active == TRAJECTORY
            trajectory.resync()
            trajectory.enabled = False
            self.compliant[name].activate(tare=from_position_control)
        self.active = name

    def current(self):
        """The active compliant controller, or None when the trajectory controller runs."""
        return self.compliant.get(self.active)


def add_compliant_controller(robot, name: str, law, sensor=None) -> CompliantController:
    """Attach a compliant controller to `robot` (inactive until `robot.controllers.switch`)."""
    if robot.controllers is None:
        robot.controllers = ControllerSwitch(robot)
    return robot.controllers.add(CompliantController(robot, name, law, sensor))
