"""The Franka Hand's commands (homing, move, grasp, stop) as libfranka runs them, on a ParallelGripper.

The real driver, franka_gripper (frankarobotics/franka_ros2, branch jazzy, v3.4.0:
`franka_gripper/src/gripper_action_server.cpp`), serves each of its actions by calling one
blocking libfranka command (frankarobotics/libfranka: `include/franka/gripper.h`,
`src/gripper.cpp`) and turning its answer into the action's result:

  homing()                        "homes the gripper and updates the maximum width"
  move(width, speed)              to a width at a speed
  grasp(width, speed, force, epsilon_inner, epsilon_outer)
                                  "An object is considered grasped if the distance d between
                                  the gripper fingers satisfies (width - epsilon_inner) < d <
                                  (width + epsilon_outer)": true if grasped, else false
                                  (libfranka's status kUnsuccessful: no error text)
  stop()                          "Stops a currently running gripper move or grasp."

Each returns a bool, which becomes the result's `success`; errors are exceptions whose text
becomes its `error`: "libfranka gripper: Command failed!" (kFail) and "libfranka gripper:
Command aborted!" (kAborted). `FrankaHand` keeps those names and answers.

Where the sources are silent, this model decides, and says so:
- a grasp closes (or, for a width wider than the fingers, opens) until something stops the
  fingers -- an object, or the end of their travel -- and then judges the width against the
  epsilons. An empty hand closes to 0, so a grasp at a width beyond epsilon_inner fails.
- after a grasp the fingers keep pushing with `force` (force control once an object stops
  them: ParallelGripper's force hold) until the next command or stop(): the hand holds what
  it grasped (franka_gripper's docs: the stop service "aborts gripper actions and stops
  grasping").
- a move that an object blocks does not end (libfranka issue #18: move "blocks until the
  desired location is reached"); stop() or a newer command ends it.
- a newer command ends the running one with "libfranka gripper: Command aborted!", and so
  does stop(); after stop() the fingers hold where they are, without force.
- `speed` is the rate of change of the width (each finger moves at speed / 2); move and
  homing push with the gripper's default force.
- a width outside [0, max width], a speed <= 0 or a force outside (0, 140] N is refused
  with "libfranka gripper: Command failed!".

`poll(now)` runs after physics steps (the sim's stepping thread) and returns the command
that has just ended, if any.
"""
from __future__ import annotations

import math
from collections import deque
from dataclasses import dataclass

from robot_tasks.sim.errors import CommandRejected

ABORTED = "libfranka gripper: Command aborted!"
FAILED = "libfranka gripper: Command failed!"
DEFAULT_EPSILON = 0.005          # m: libfranka's and franka_gripper's default grasp epsilons
DEFAULT_SPEED = 0.1              # m/s: franka_gripper's `default_speed` (gripper_action uses it)
SAME_POSITION = 1e-4             # m: franka_gripper's kSamePositionThreshold (gripper_action)


@dataclass
class HandCommand:
    """One libfranka command: what was asked, and (once `done`) its answer."""

    kind: str                    # "homing" | "move" | "grasp"
    width: float = 0.0           # m: the target (grasp: the expected object width)
    speed: float = DEFAULT_SPEED
    force: float = 0.0           # N (grasp)
    epsilon_inner: float = DEFAULT_EPSILON
    epsilon_outer: float = DEFAULT_EPSILON
    phase: str = ""              # homing: "close", then "open"
    done: bool = False
    success: bool = False
    error: str = ""

    def finish(self, success: bool, error: str = "") -> None:
        self.done, self.success, self.error = True, bool(success), error

    def grasped(self, d: float) -> bool:
        """libfranka's rule: (width - epsilon_inner) < d < (width + epsilon_outer)."""
        return self.width - self.epsilon_inner < d < self.width + self.epsilon_outer


class FrankaHand:
    """The hand's command semantics over a ParallelGripper (see the module docstring)."""

    REACHED = 0.001          # m: a move (and homing's opening leg) ends this close to its width
    STILL_WINDOW = 0.1       # s the width must stay within STILL_DISTANCE to count as stopped
    STILL_DISTANCE = 2e-4    # m

    def __init__(self, gripper):
        self.gripper = gripper
        self.running: HandCommand | None = None
        self._samples: deque = deque()

    @property
    def max_width(self) -> float:
        return self.gripper.max_width

    def width(self) -> float:
        return self.gripper.width()

    # --- commands ------------------------------------------------------------------
    def homing(self, now: float) -> HandCommand:
        return self._start(HandCommand("homing", 0.0, DEFAULT_SPEED, phase="close"), now)

    def move(self, width: float, speed: float, now: float) -> HandCommand:
        return self._start(HandCommand("move", width, speed), now)

    def grasp(self, width: float, speed: float, force: float, epsilon_inner: float,
              epsilon_outer: float, now: float) -> HandCommand:
        return self._start(HandCommand("grasp", width, speed, force, epsilon_inner, epsilon_outer), now)

    def stop(self) -> bool:
        """End the running command (ABORTED) and hold the fingers where they are, without force."""
        self._abort_running()
        width = min(max(self.width(), 0.0), self.max_width)
        self.gripper.command(width, self.gripper.default_effort)
        return True

    def gripper_command(self, position: float, max_effort: float, now: float):
        """control_msgs GripperCommand as franka_gripper's `gripper_action` maps it
        (onExecuteGripperCommand): the target width is 2 x position; out of [0, max width]
        the goal is aborted ("out_of_range"); within 1e-4 m of the width now it succeeds at
        once ("same"); wider than now is move(width, default speed), narrower is
        grasp(width, default speed, max_effort, 0.005, 0.005). Returns (verdict, command)."""
        target = 2.0 * position
        if not math.isfinite(target) or target > self.max_width or target < 0.0:
            return "out_of_range", None
        current = self.width()
        if abs(target - current) < SAME_POSITION:
            return "same", None
        if target >= current:
            return "started", self.move(target, DEFAULT_SPEED, now)
        return "started", self.grasp(target, DEFAULT_SPEED, max_effort, DEFAULT_EPSILON, DEFAULT_EPSILON, now)

    # --- stepping --------------------------------------------------------------------
    def poll(self, now: float) -> HandCommand | None:
        """After physics steps: end the running command if it is done; return it then."""
        command = self.running
        if command is None:
            return None
        width = self.width()
        still = self._still(now, width)
        if command.kind == "move":
            if abs(width - command.width) <= self.REACHED:
                command.finish(True)
        elif command.kind == "grasp":
            if still:
                command.finish(command.grasped(width))
        elif command.phase == "close":
            if width <= self.REACHED or still:        # closed (or on an object): open again
                command.phase = "open"
                self._samples.clear()
                self._drive(self.max_width, self.gripper.default_effort, False, command.speed)
        elif abs(width - self.max_width) <= self.REACHED:
            command.finish(True)
        if command.done:
            self.running = None
            return command
        return None

    # --- internals -------------------------------------------------------------------
    def _start(self, command: HandCommand, now: float) -> HandCommand:
        self._abort_running()
        self._samples.clear()
        problem = self._refused(command)
        if problem:
            command.finish(False, FAILED)
            return command
        try:
            if command.kind == "grasp":
                toward = 0.0 if command.width <= self.width() else self.max_width
                self._drive(toward, command.force, True, command.speed)
            elif command.kind == "move":
                self._drive(command.width, self.gripper.default_effort, False, command.speed)
            else:
                self._drive(0.0, self.gripper.default_effort, False, command.speed)
        except CommandRejected:
            command.finish(False, FAILED)
            return command
        self.running = command
        self._samples.append((now, self.width()))
        return command

    def _refused(self, command: HandCommand) -> bool:
        numbers = (command.width, command.speed, command.force, command.epsilon_inner, command.epsilon_outer)
        if not all(math.isfinite(v) for v in numbers):
            return True
        if command.kind == "homing":
            return False
        if not 0.0 <= command.width <= self.max_width or command.speed <= 0.0:
            return True
        return command.kind == "grasp" and (command.force <= 0.0 or command.epsilon_inner < 0.0
                                            or command.epsilon_outer < 0.0)

    def _drive(self, width: float, force: float, hold: bool, speed: float) -> None:
        self.gripper.command(width, force, force_hold=hold, speed=speed)

    def _abort_running(self) -> None:
        if self.running is not None:
            self.running.finish(False, ABORTED)
            self.running = None

    def _still(self, now: float, width: float) -> bool:
        samples = self._samples
        samples.append((now, width))
        while len(samples) > 2 and samples[1][0] <= now - self.STILL_WINDOW:
            samples.popleft()
        if samples[-1][0] - samples[0][0] < self.STILL_WINDOW - 1e-9:
            return False
        widths = [w for _, w in samples]
        return max(widths) - min(widths) < self.STILL_DISTANCE
