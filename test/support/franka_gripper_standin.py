"""A stand-in for franka_gripper (the Franka Hand's ROS 2 driver), with no physics.

Written from franka_gripper's own documentation and source (frankarobotics/franka_ros2,
branch jazzy, v3.4.0: `franka_gripper/doc/index.rst`, `src/gripper_action_server.cpp`,
`include/franka_gripper/gripper_action_server.hpp`, `config/franka_gripper_node.yaml`)
and libfranka's (`include/franka/gripper.h`, `src/gripper.cpp`), not from this project's
servers or sim, so that a server passing against it talks to franka_gripper:

- actions `<name>/homing`, `<name>/move`, `<name>/grasp` (franka_msgs) and
  `<name>/gripper_action` (control_msgs/GripperCommand), service `<name>/stop`
  (std_srvs/Trigger), topic `<name>/joint_states` (the two finger joints, each at width / 2,
  velocity and effort 0).
- every goal is accepted. homing/move/grasp end SUCCEEDED with success=true, or ABORTED with
  success=false and libfranka's exception text in `error` ("libfranka gripper: Command
  failed!" for a width, speed or force it refuses; "libfranka gripper: Command aborted!" for
  a command that a stop or a newer command ended) or no text (a grasp that is not a grasp).
- grasp: "successful if the distance d between the gripper fingers is
  width - epsilon.inner < d < width + epsilon.outer". The fingers close until something
  stops them (the `object_width` parameter: an object that wide; else their end of travel)
  and keep the grasp force afterwards.
- move: to the width at the speed; an object in the way blocks it, and then it does not end
  (libfranka issue #18) until stop() or a newer command.
- a cancel calls stop() and ends the goal CANCELED.
- gripper_action (onExecuteGripperCommand): target width = 2 x command.position; outside
  [0, max_width] -> ABORTED at once; within 1e-4 m of the width now -> SUCCEEDED at once;
  wider -> move at default_speed 0.1 m/s, narrower -> grasp with command.max_effort and the
  default epsilons 0.005 m. The result's position is the whole width, effort 0, stalled
  false, reached_goal = the command's answer; feedback position = the width.
- feedback `current_width` while homing/move/grasp run.

The hand is driven by its owner's timer: `update(now, dt)`. `later(apply, *args)` is how
the owner delays what arrives (its command_delay); speeds are in m/s of width, capped by
`max_speed` (each finger then moves at speed / 2).
"""
from __future__ import annotations

import math

from rclpy.action import ActionServer, CancelResponse, GoalResponse
from rclpy.task import Future
from sensor_msgs.msg import JointState
from std_srvs.srv import Trigger

from control_msgs.action import GripperCommand
from franka_msgs.action import Grasp, Homing, Move

FAILED = "libfranka gripper: Command failed!"
ABORTED = "libfranka gripper: Command aborted!"
DEFAULT_SPEED, DEFAULT_EPSILON, SAME_POSITION = 0.1, 0.005, 1e-4
FEEDBACK_PERIOD = 1.0 / 30.0       # franka_gripper_node.yaml: feedback_publish_rate 30
STATE_PERIOD = 1.0 / 15.0          # franka_gripper_node.yaml: state_publish_rate 15


ACTIONS = {"homing": Homing, "move": Move, "grasp": Grasp, "gripper_action": GripperCommand}


class Command:
    """One libfranka command in flight (`kind`) and the goal of `action` that waits for it."""

    def __init__(self, action, kind, handle, target, speed, force=0.0, inner=0.0, outer=0.0):
        self.action, self.kind, self.handle = action, kind, handle
        self.target, self.speed, self.force, self.inner, self.outer = target, speed, force, inner, outer
        self.done = Future()        # result: (success, error)
        self.next_feedback = 0.0


class StandInFrankaGripper:
    def __init__(self, node, joint_names, later=lambda apply, *args: apply(*args),
                 name: str = "franka_gripper", max_width: float = 0.08, object_width: float = 0.0,
                 max_speed: float = math.inf):
        self.node, self.joint_names, self.later = node, list(joint_names), later
        self.max_width, self.object_width, self.max_speed = max_width, object_width, max_speed
        self.width = max_width
        self.running: Command | None = None
        self.motion_target = max_width     # where the fingers go (a grasp: toward its end of travel)
        self._next_state = 0.0
        self.state_pub = node.create_publisher(JointState, f"{name}/joint_states", 1)
        node.create_service(Trigger, f"{name}/stop", self._on_stop)
        for rel, action in ACTIONS.items():
            ActionServer(node, action, f"{name}/{rel}", execute_callback=self._execute,
                         goal_callback=lambda _goal: GoalResponse.ACCEPT,
                         cancel_callback=self._on_cancel)

    # --- the hand (libfranka's commands) ---------------------------------------------
    def _start(self, command: Command) -> None:
        if self.running is not None:
            self._finish(self.running, False, ABORTED)
        if command.handle.is_cancel_requested:           # cancelled while in transit
            self._finish(command, False, ABORTED)
            return
        numbers = (command.target, command.speed, command.force)
        if not all(math.isfinite(v) for v in numbers) or command.speed <= 0.0 or \
                (command.kind != "homing" and not 0.0 <= command.target <= self.max_width) or \
                (command.kind == "grasp" and command.force <= 0.0):
            self._finish(command, False, FAILED)
            return
        self.running = command
        if command.kind == "grasp":
            self.motion_target = 0.0 if command.target <= self.width else self.max_width
        elif command.kind == "homing":
            self.motion_target = self.max_width
        else:
            self.motion_target = command.target

    def _finish(self, command: Command, success: bool, error: str = "") -> None:
        if self.running is command:
            self.running = None
        if not command.done.done():
            command.done.set_result((bool(success), error))

    def stop(self) -> bool:
        if self.running is not None:
            self._finish(self.running, False, ABORTED)
        self.motion_target = self.width          # hold here, stop grasping
        return True

    def update(self, now: float, dt: float) -> None:
        command = self.running
        speed = min(command.speed if command else DEFAULT_SPEED, self.max_speed)
        target = self.motion_target
        if self.object_width > 0 and target < self.object_width <= self.width + 1e-12:
            target = self.object_width              # an object between the fingers stops them
        step = speed * dt
        self.width += max(-step, min(step, target - self.width))
        if command is not None and abs(self.width - target) < 1e-9:      # the fingers stopped
            if command.kind == "grasp":
                self._finish(command, command.target - command.inner < self.width < command.target + command.outer)
            elif target == self.motion_target:      # there; a move an object blocks runs on (libfranka #18)
                self._finish(command, True)
        if command is not None and not command.done.done() and now >= command.next_feedback:
            command.next_feedback = now + FEEDBACK_PERIOD
            if command.action == "gripper_action":
                command.handle.publish_feedback(GripperCommand.Feedback(position=self.width))
            else:
                command.handle.publish_feedback(ACTIONS[command.action].Feedback(current_width=self.width))
        if now >= self._next_state:
            self._next_state = now + STATE_PERIOD
            half = self.width / 2.0
            self.state_pub.publish(JointState(name=self.joint_names, position=[half, half],
                                              velocity=[0.0, 0.0], effort=[0.0, 0.0]))

    # --- franka_gripper's ROS side -----------------------------------------------------
    def _command_for(self, handle):
        request = handle.request
        if isinstance(request, Homing.Goal):
            return Command("homing", "homing", handle, self.max_width, DEFAULT_SPEED)
        if isinstance(request, Move.Goal):
            return Command("move", "move", handle, request.width, request.speed)
        if isinstance(request, Grasp.Goal):
            return Command("grasp", "grasp", handle, request.width, request.speed, request.force,
                           request.epsilon.inner, request.epsilon.outer)
        target = 2.0 * request.command.position                    # franka: width = 2 x position
        if not math.isfinite(target) or target > self.max_width or target < 0.0:
            return "out_of_range"
        if abs(target - self.width) < SAME_POSITION:
            return "same"
        if target >= self.width:
            return Command("gripper_action", "move", handle, target, DEFAULT_SPEED)
        return Command("gripper_action", "grasp", handle, target, DEFAULT_SPEED, request.command.max_effort,
                       DEFAULT_EPSILON, DEFAULT_EPSILON)

    async def _execute(self, handle):
        command = self._command_for(handle)
        if command == "out_of_range":
            handle.abort()
            return GripperCommand.Result()
        if command == "same":
            handle.succeed()
            return GripperCommand.Result(position=self.width, reached_goal=True)
        self.later(self._start, command)
        success, error = await command.done
        if handle.is_cancel_requested:
            handle.canceled()
        elif success:
            handle.succeed()
        else:
            handle.abort()
        if command.action == "gripper_action":
            return GripperCommand.Result(position=self.width, effort=0.0, stalled=False, reached_goal=success)
        return ACTIONS[command.action].Result(success=success, error=error)

    def _on_cancel(self, handle) -> CancelResponse:
        self.later(self._cancel, handle)
        return CancelResponse.ACCEPT

    def _cancel(self, handle) -> None:
        """franka_gripper: a goal being cancelled -> gripper->stop()."""
        command = self.running
        if command is not None and bytes(command.handle.goal_id.uuid) == bytes(handle.goal_id.uuid):
            self.stop()

    def _on_stop(self, _request, response):
        self.later(self.stop)
        response.success, response.message = True, ""
        return response
