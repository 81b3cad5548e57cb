"""A parallel-gripper goal as a real driver's action, and the driver's answer as our verdict (pure).

The gripper server keeps its own interface (robot_tasks_interfaces GripperCommand: PARALLEL,
FORCE_HOLD, SUCTION) and speaks the driver's. Two drivers of a parallel gripper:

franka -- franka_gripper's actions (frankarobotics/franka_ros2, branch jazzy, v3.4.0,
  `franka_gripper/src/gripper_action_server.cpp`; libfranka `include/franka/gripper.h`):
  * opening, or staying (target not below the width now by more than width_tolerance: the
    fingers of an open hand may read a hair wider than its max width): `move(width, speed)`. libfranka's move
    ends once the fingers are there (a blocked move does not end: the server's timeout
    cancels it, and franka_gripper answers a cancel with stop()).
  * closing, PARALLEL or FORCE_HOLD alike: `grasp(width, speed, force = max_effort,
    epsilon_inner, epsilon_outer = the max width)`. The hand closes until something stops
    the fingers and keeps squeezing with `force` -- franka's grasp *is* FORCE_HOLD, and a
    PARALLEL close on an object must hold it the same way. libfranka calls it grasped when
    (width - epsilon_inner) < d < (width + epsilon_outer); with epsilon_outer = the max
    width anything the fingers stop on counts, and whether an object is there is read from
    d, as for any gripper (wider than width + stall_margin). A grasp that misses the
    epsilons (success=false, no error text) closed past the target: nothing was there.
  * an answer with `error` text ("libfranka gripper: Command failed!" / "... aborted!"),
    a refused goal, or a goal the driver cancelled by itself: CONTROLLER_FAILED.

gripper_action -- control_msgs GripperCommand (ros2_controllers' gripper action
  controllers, franka_gripper's `gripper_action`): command.position = width x
  `position_per_width` (franka_gripper: width = 2 x position, so 0.5; a controller on one
  finger joint of the Panda: 0.5 as well), command.max_effort = max_effort.
  SUCCEEDED ends the goal; ABORTED too when the fingers stopped on an object (franka_gripper
  aborts a grasp that misses its 5 mm epsilons; GripperActionController aborts a stall
  unless allow_stalling) or reached the target; otherwise CONTROLLER_FAILED.

In both the measured width (joint_states) decides reached_goal (within width_tolerance of
the target) and object_detected (closing, stopped wider than target + stall_margin).
"""
from __future__ import annotations

from dataclasses import dataclass, field

from robot_tasks.control.gripper_logic import GripperSettings, ParallelCommand, Verdict
from robot_tasks.control.motion_errors import ErrorCode, MotionFailure

SUCCEEDED, ABORTED, CANCELED = "SUCCEEDED", "ABORTED", "CANCELED"


@dataclass(frozen=True)
class DriverCall:
    """One goal for the driver: which action (`kind`) and its fields."""

    kind: str                  # "move" | "grasp" (franka), "gripper_command" (control_msgs)
    target: float              # m: the width the server's goal asked for
    closing: bool
    fields: dict = field(default_factory=dict)


def closes(cmd: ParallelCommand, width_now: float, settings: GripperSettings) -> bool:
    """Does the command close the fingers (its width below the width now, beyond the tolerance)?"""
    return cmd.width < width_now - settings.width_tolerance


def franka_call(cmd: ParallelCommand, width_now: float, speed: float, epsilon_inner: float,
                settings: GripperSettings) -> DriverCall:
    """A PARALLEL / FORCE_HOLD command as franka_gripper's move or grasp (module docstring)."""
    if not closes(cmd, width_now, settings):
        return DriverCall("move", cmd.width, False, {"width": cmd.width, "speed": speed})
    return DriverCall("grasp", cmd.width, True,
                      {"width": cmd.width, "speed": speed, "force": cmd.effort,
                       "epsilon_inner": epsilon_inner, "epsilon_outer": settings.max_width})


def gripper_action_call(cmd: ParallelCommand, width_now: float, position_per_width: float,
                        settings: GripperSettings) -> DriverCall:
    return DriverCall("gripper_command", cmd.width, closes(cmd, width_now, settings),
                      {"position": cmd.width * position_per_width, "max_effort": cmd.effort})


def measured_verdict(call: DriverCall, width: float, settings: GripperSettings) -> Verdict:
    """reached_goal / object_detected from the width the fingers ended at."""
    held = call.closing and width > call.target + settings.stall_margin
    return Verdict(not held and abs(width - call.target) <= settings.width_tolerance, held)


def judge_franka(call: DriverCall, status: str, success: bool, error: str, width: float,
                 settings: GripperSettings) -> tuple[Verdict, str]:
    """franka_gripper's answer -> (verdict, message); MotionFailure when the driver failed."""
    mm = width * 1000.0
    if status == CANCELED:
        raise MotionFailure(ErrorCode.CONTROLLER_FAILED, f"franka_gripper cancelled the {call.kind} "
                            f"goal by itself (width {mm:.1f} mm)")
    if error:
        raise MotionFailure(ErrorCode.CONTROLLER_FAILED, f"franka_gripper {call.kind} failed: {error}")
    verdict = measured_verdict(call, width, settings)
    if status == SUCCEEDED and success:
        if verdict.object_detected:
            return verdict, f"holding an object at {mm:.1f} mm (franka grasp, {call.fields['force']:g} N)"
        return verdict, f"width {mm:.1f} mm (target {call.target * 1000:.1f} mm)"
    if call.kind == "grasp":      # libfranka: not grasped -- the fingers closed past the target
        return Verdict(False, False), (f"nothing to grasp: the fingers closed to {mm:.1f} mm, past "
                                             f"the target {call.target * 1000:.1f} mm (franka grasp unsuccessful)")
    raise MotionFailure(ErrorCode.CONTROLLER_FAILED, f"franka_gripper {call.kind} ended {status} without "
                        f"success at {mm:.1f} mm")


def judge_gripper_action(call: DriverCall, status: str, width: float,
                         settings: GripperSettings) -> tuple[Verdict, str]:
    """control_msgs GripperCommand's end -> (verdict, message); MotionFailure when it failed."""
    mm = width * 1000.0
    if status == CANCELED:
        raise MotionFailure(ErrorCode.CONTROLLER_FAILED, f"the gripper action cancelled the goal by "
                            f"itself (width {mm:.1f} mm)")
    verdict = measured_verdict(call, width, settings)
    if verdict.object_detected:
        return verdict, f"holding an object at {mm:.1f} mm (gripper action {status})"
    if status == SUCCEEDED or verdict.reached_goal:
        return verdict, f"width {mm:.1f} mm (target {call.target * 1000:.1f} mm)"
    raise MotionFailure(ErrorCode.CONTROLLER_FAILED, f"the gripper action ended {status} at {mm:.1f} mm, "
                        f"neither at the target {call.target * 1000:.1f} mm nor on an object")
