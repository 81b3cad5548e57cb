"""controller_manager's `switch_controller` rules: which requests go through, and what it answers.

ros2_control's controller_manager (ros-controls/ros2_control, branch kilted,
controller_manager/src/controller_manager.cpp: `switch_controller_cb`,
`check_for_interfaces_availability_to_activate`, `evaluate_switch_result`) takes a request

    activate_controllers, deactivate_controllers, strictness, activate_asap, timeout

and answers `ok` and a `message`. Its rules, as `plan_switch` applies them to the sim's
controllers (no ROS here; the sim's service calls it):

1. strictness: STRICT (2) is all or nothing; BEST_EFFORT (1) skips what cannot be done.
   0 means the manager's default, `best_effort`; AUTO (3) and FORCE_AUTO (4) are not
   implemented upstream and fall back to BEST_EFFORT.
2. Names: an unknown controller fails a STRICT switch ("Could not activate controller with
   name 'x' because no controller with this name exists"). BEST_EFFORT skips it, but the
   list it was in fails when nothing before it in that list was known — so a request of
   unknown names alone fails, even best effort.
3. Activating an active controller that is not also being deactivated ("... is already
   active.") and deactivating an inactive one ("... can not be deactivated since it is not
   active.") fail a STRICT switch and are skipped by BEST_EFFORT.
4. Nothing left to do is a success: "After checking the controllers, no controllers need to
   be activated or deactivated."
5. Whatever the strictness, a controller cannot be activated while a command interface it
   needs stays claimed by an active controller that is not being deactivated, nor when two
   controllers being activated need the same interface. One arm, one controller: to go from
   the trajectory controller to "osc", deactivate the one and activate the other in the
   same request.
6. Done: "Successfully switched controllers!", followed (unless STRICT) by the lines
   "Deactivated controllers: [ a ]" and "Activated controllers: [ b ]".

The sim adds one rule of its own: its broadcasters (joint_state_broadcaster,
franka_robot_state_broadcaster) always run; a request naming one fails and says so.
"""
from __future__ import annotations

from dataclasses import dataclass, field

BEST_EFFORT, STRICT, AUTO, FORCE_AUTO = 1, 2, 3, 4     # controller_manager_msgs/SwitchController
NOTHING_TO_DO = "After checking the controllers, no controllers need to be activated or deactivated."


@dataclass(frozen=True)
class Listed:
    """A controller as the rules see it."""

    active: bool
    command_interfaces: tuple = ()
    switchable: bool = True


@dataclass
class SwitchPlan:
    ok: bool
    message: str = ""
    deactivate: list = field(default_factory=list)
    activate: list = field(default_factory=list)

    @property
    def changes(self) -> bool:
        return bool(self.deactivate or self.activate)


def effective_strictness(strictness: int) -> int:
    return STRICT if strictness == STRICT else BEST_EFFORT


def plan_switch(controllers: dict, activate, deactivate, strictness: int) -> SwitchPlan:
    """What a request does to `controllers` (name -> Listed), or why it fails."""
    strict = effective_strictness(strictness) == STRICT
    message = ""

    def known(names, action):
        nonlocal message
        chosen, ok = [], True
        for name in names:
            if name in controllers:
                chosen.append(name)
                ok = True
                continue
            error = (f"Could not {action} controller with name '{name}' because no controller "
                     "with this name exists")
            if strict:
                message = error
                return False, chosen
            message += error + "\n"
            ok = bool(chosen)
        return ok, chosen

    ok, off = known(deactivate, "deactivate")
    if not ok:
        return SwitchPlan(False, message)
    ok, on = known(activate, "activate")
    if not ok:
        return SwitchPlan(False, message)
    for name in list(on):
        if controllers[name].active and name not in off:
            if strict:
                return SwitchPlan(False, f"Controller with name '{name}' is already active.")
            on.remove(name)
    for name in list(off):
        if not controllers[name].active:
            if strict:
                return SwitchPlan(False, f"Controller with name '{name}' can not be deactivated "
                                         "since it is not active.")
            off.remove(name)
    if not on and not off:
        return SwitchPlan(True, NOTHING_TO_DO)
    fixed = [n for n in [*off, *on] if not controllers[n].switchable]
    if fixed:
        return SwitchPlan(False, f"the sim keeps its broadcasters active: {fixed} cannot be switched")
    problem = interface_conflict(controllers, on, off)
    if problem:
        return SwitchPlan(False, problem)
    return SwitchPlan(True, "", off, on)


def interface_conflict(controllers: dict, on, off) -> str:
    """controller_manager's availability check of the command interfaces ("" = none)."""
    freed = {i for n in off for i in controllers[n].command_interfaces}
    claimed = {i for c in controllers.values() if c.active for i in c.command_interfaces}
    taken: set = set()
    for name in on:
        if name in off:              # restarted in the same request
            continue
        for interface in controllers[name].command_interfaces:
            if interface in claimed and interface not in freed:
                return (f"Unable to activate controller '{name}' since the command interface "
                        f"'{interface}' is currently claimed by another controller.")
            if interface in taken:
                return (f"Unable to activate controller '{name}' since the command interface "
                        f"'{interface}' will be used by another controller that is being activated.")
            taken.add(interface)
    return ""


def success_message(plan: SwitchPlan, strictness: int) -> str:
    """evaluate_switch_result's text for a switch that went through."""
    text = "Successfully switched controllers!"
    if effective_strictness(strictness) != STRICT:
        if plan.deactivate:
            text += f"\nDeactivated controllers: [ {' '.join(plan.deactivate)} ]"
        if plan.activate:
            text += f"\nActivated controllers: [ {' '.join(plan.activate)} ]"
    return text
