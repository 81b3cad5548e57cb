"""controller_manager's two services for one simulated arm, with controller_manager_msgs.

  srv  <ns>/controller_manager/switch_controller  controller_manager_msgs/SwitchController
  srv  <ns>/controller_manager/list_controllers   controller_manager_msgs/ListControllers

as ros2_control's controller_manager (branch kilted) serves them:

* switch_controller takes `activate_controllers`, `deactivate_controllers`, `strictness`,
  `activate_asap` and `timeout`, and answers `ok` and `message` with controller_manager's
  rules and words (robot_tasks.sim.controller_manager). The switch happens in one step of
  the sim's control loop before the answer; a loop that does not get to it within `timeout`
  (0 = controller_manager's 1 s) answers "Switch controller timed out after 1 seconds!" and
  switches nothing. `activate_asap` changes nothing here: the sim's hardware is always ready.
* list_controllers answers a ControllerState per controller: the broadcasters the sim
  serves (joint_state_broadcaster always, franka_robot_state_broadcaster for a Franka with an
  F/T sensor, force_torque_sensor_broadcaster for a UR; whatever else the RobotIO names in
  `listed_controllers`), the joint trajectory controller (`joint_trajectory_controller`, type
  joint_trajectory_controller/JointTrajectoryController) and the arm's compliant controllers
  with their types; `state` "active" or "inactive", `claimed_interfaces` what an active one
  holds, `required_command_interfaces` / `required_state_interfaces` what it needs,
  `update_rate` the sim's control rate.

Switching away from the trajectory controller makes its follow_joint_trajectory refuse goals
(JointTrajectoryController.enabled; robot_tasks.sim.controller_switch says what a switch
does to the arm). Service callbacks run on the executor thread and wait for the stepping
thread (Inbox.call), which alone touches the World.
"""
from __future__ import annotations

from dataclasses import dataclass

from controller_manager_msgs.msg import ControllerState
from controller_manager_msgs.srv import ListControllers, SwitchController
from robot_tasks.controller_topics import LIST_SERVICE, SWITCH_SERVICE
from robot_tasks.nodes.sim.convert import stamp_seconds
from robot_tasks.nodes.sim.inbox import InboxClosed
from robot_tasks.sim.controller_manager import Listed, plan_switch, success_message

DEFAULT_TIMEOUT = 1.0      # s: controller_manager's switch timeout when the request gives 0
JOINT_STATE_BROADCASTER = ("joint_state_broadcaster", "joint_state_broadcaster/JointStateBroadcaster")


@dataclass(frozen=True)
class Broadcaster:
    name: str
    type: str
    state_interfaces: tuple = ()


class _Expired:
    """Set by the service once it gave up waiting: the stepping thread must not switch after."""

    def __init__(self):
        self.value = False


class ControllerManagerIO:
    """switch_controller / list_controllers of one RobotIO (see the module docstring)."""

    def __init__(self, node, robot_io, broadcasters):
        self.node, self.robot_io = node, robot_io
        self.broadcasters = list(broadcasters)
        self._log = node.get_logger()
        node.create_service(SwitchController, robot_io.topic(SWITCH_SERVICE), self._on_switch)
        node.create_service(ListControllers, robot_io.topic(LIST_SERVICE), self._on_list)

    @property
    def switch(self):
        return self.robot_io.robot.controllers     # rebuilt with the robot on a reset

    # --- stepping thread -------------------------------------------------------------------
    def _broadcasters(self) -> list[Broadcaster]:
        """Ours, and what other parts of the sim list (RobotIO.listed_controllers: (name, type))."""
        others = [Broadcaster(name, kind) for name, kind in getattr(self.robot_io, "listed_controllers", ())]
        return self.broadcasters + others

    def _listed(self) -> dict:
        listed = {b.name: Listed(True, (), switchable=False) for b in self._broadcasters()}
        for entry in self.switch.entries():
            listed[entry.name] = Listed(entry.active, entry.command_interfaces)
        return listed

    def _switch(self, activate, deactivate, strictness, expired: _Expired):
        if expired.value:
            return False, "the switch request expired before the control loop took it"
        plan = plan_switch(self._listed(), activate, deactivate, strictness)
        if not plan.ok or not plan.changes:
            return plan.ok, plan.message
        self.switch.apply(plan.deactivate, plan.activate)
        return True, success_message(plan, strictness)

    def _states(self) -> list[ControllerState]:
        rate = int(round(self.robot_io.robot.world.physics_rate))
        states = [ControllerState(name=b.name, state="active", type=b.type, update_rate=rate,
                                  required_state_interfaces=list(b.state_interfaces))
                  for b in self._broadcasters()]
        for entry in self.switch.entries():
            states.append(ControllerState(
                name=entry.name, state="active" if entry.active else "inactive", type=entry.type,
                update_rate=rate, claimed_interfaces=list(entry.command_interfaces) if entry.active else [],
                required_command_interfaces=list(entry.command_interfaces),
                required_state_interfaces=list(entry.state_interfaces)))
        return states

    # --- services (executor thread) ------------------------------------------------------------
    def _on_switch(self, request, response):
        timeout = stamp_seconds(request.timeout) or DEFAULT_TIMEOUT
        expired = _Expired()
        activate, deactivate = list(request.activate_controllers), list(request.deactivate_controllers)
        try:
            response.ok, response.message = self.node.inbox.call(
                self._switch, activate, deactivate, int(request.strictness), expired, timeout=timeout)
        except TimeoutError:
            expired.value = True
            response.ok, response.message = False, f"Switch controller timed out after {timeout:g} seconds!"
        except InboxClosed as err:
            response.ok, response.message = False, f"the simulation is stopping ({err})"
        words = f"{self.robot_io.name}: activate {activate} deactivate {deactivate}: " + \
            response.message.replace("\n", " ")
        if response.ok:
            self._log.info(f"switch_controller: {words}")
        else:
            self._log.warning(f"switch_controller: {words}")
        return response

    def _on_list(self, _request, response):
        try:
            response.controller = self.node.inbox.call(self._states)
        except (InboxClosed, TimeoutError) as err:
            self._log.warning(f"list_controllers failed: {err}")
        return response


def joint_state_broadcaster(robot) -> Broadcaster:
    return Broadcaster(*JOINT_STATE_BROADCASTER, tuple(
        f"{j}/{k}" for j in robot.joint_names for k in ("position", "velocity", "effort")))
