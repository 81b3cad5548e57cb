"""A joint trajectory controller that behaves like ros2_control's joint_trajectory_controller.

What ros2_controllers' JTC (kilted branch, `joint_trajectory_controller.cpp`) does, and so
what this one does:

* `command(trajectory)` validates the whole trajectory first and raises CommandRejected
  with a reason (no points -- JTC's "Empty trajectory received." --, unknown or missing
  joints, wrong lengths, NaN/inf, positions beyond the URDF limits, times not strictly
  increasing).  A rejected command changes nothing: the arm keeps doing what it did.
* An accepted trajectory starts at its start time from the current *command* (desired
  position and velocity), so preempting a moving arm is smooth.
* Tolerances (`Tolerances`; 0 = not checked, as in JTC): while the trajectory runs, a
  joint further than its `path` tolerance from the desired position aborts it
  (PATH_TOLERANCE_VIOLATED); after its last point the trajectory succeeds once every joint
  is within its `goal` tolerance and slower than `stopped_velocity`, and aborts
  (GOAL_TOLERANCE_VIOLATED) if that has not happened `goal_time` s after the end
  (0 = wait for ever).  Every abort holds the measured position, as JTC's
  `set_hold_position` does; a success holds the last point.
* `stop()` holds the measured position (a cancelled goal, a preempting one, a deactivation).
* `speed_scaling` in [0, 1] stretches time along the trajectory (JTC's scaling factor, the
  UR's speed slider): the trajectory's clock advances by `scaling * dt` per step.
* While a compliant (torque) controller owns the arm (controller_switch.py), this one is
  inactive, as an inactive ros2_control controller: it rejects trajectories and sends
  nothing to the motors.
* With `record_steps` on, every `update` reads the measured positions just before it
  applies the step's command: `step_record()` is that pair (reference, feedback) of the
  last control step, what joint_trajectory_controller publishes as its controller_state
  (off by default: the read costs a little every step).

Motors run PyBullet POSITION_CONTROL with target velocities and the URDF effort limits
as force limits.  Time is sim time, so the controller works at any real-time factor.
"""
from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import Sequence

import numpy as np
import pybullet as p

from robot_tasks.sim.errors import CommandRejected
from robot_tasks.sim.trajectory import Interpolator, JointTrajectory, is_finite_list

LIMIT_MARGIN = 1e-4   # rad or m; rounding slack when a point sits exactly on a limit


class Outcome(str, Enum):
    """How the last accepted trajectory ended (FollowJointTrajectory's result, by name)."""

    NONE = "none"                                       # nothing accepted yet
    EXECUTING = "executing"                             # running or settling
    SUCCESSFUL = "successful"
    PATH_TOLERANCE_VIOLATED = "path_tolerance_violated"
    GOAL_TOLERANCE_VIOLATED = "goal_tolerance_violated"
    STOPPED = "stopped"                                 # stop(): cancel, preempt, deactivation


@dataclass(frozen=True)
class Tolerances:
    """One trajectory's tolerances, JTC's SegmentTolerances (0 = not checked)."""

    path: np.ndarray           # per joint [rad or m], desired - measured while moving
    goal: np.ndarray           # per joint [rad or m], at the end
    stopped_velocity: float    # [rad/s or m/s] every joint slower than this at the end
    goal_time: float           # [s] after the last point's time; 0 = wait for ever

    @classmethod
    def uniform(cls, n: int, path: float = 0.0, goal: float = 0.05, stopped_velocity: float = 0.2,
                goal_time: float = 1.0) -> "Tolerances":
        """The same tolerance for every joint. The defaults are the sim's `constraints`, what
        a cell's controllers.yaml sets (UR's ur_controllers.yaml: goal 0.1, stopped velocity
        0.2): loose enough for an arm pressing on what it holds, tight enough that a blocked
        arm ends GOAL_TOLERANCE_VIOLATED 1 s after the end instead of never. Servers check
        their own, finer tolerance on the measured pose after the controller's success."""
        return cls(np.full(n, float(path)), np.full(n, float(goal)), float(stopped_velocity),
                   float(goal_time))


@dataclass(frozen=True)
class ControllerState:
    """What the controller reports, like JTC's controller_state topic plus the goal outcome."""

    joint_names: list
    desired: list            # commanded positions now
    actual: list             # measured positions now
    error: list              # desired - actual
    active: bool             # a trajectory is executing or settling
    goal_reached: bool       # the last trajectory's final point was reached within tolerance
    error_message: str       # why the last trajectory failed or was rejected ("" if none)
    trajectory_id: int       # increments on every accepted trajectory
    time_remaining: float    # sim seconds until the last point's time (0 when holding)
    outcome: Outcome = Outcome.NONE
    speed_scaling: float = 1.0


class JointTrajectoryController:
    """Executes whole joint trajectories on a Robot's arm joints."""

    def __init__(self, robot, joint_names: Sequence[str] | None = None,
                 tolerances: Tolerances | None = None):
        self.robot = robot
        self.joint_names = list(joint_names or robot.arm_joint_names)
        self._idx = robot.indices(self.joint_names)
        self._lower = np.array([robot.limits[n].lower for n in self.joint_names])
        self._upper = np.array([robot.limits[n].upper for n in self.joint_names])
        self._forces = [robot.limits[n].effort for n in self.joint_names]
        self.default_tolerances = tolerances or Tolerances.uniform(len(self.joint_names))
        self._tolerances = self.default_tolerances
        self._interp: Interpolator | None = None
        self._start = 0.0
        self._traj_time = 0.0         # the trajectory's own clock (advances by scaling * dt)
        self._last_update: float | None = None
        self.speed_scaling = 1.0
        self.trajectory_id = 0
        self.outcome = Outcome.NONE
        self.error_message = ""
        self.enabled = True           # False while another controller owns the joints
        self.resync()
        self._feedback = self._desired.copy()   # measured just before the last step's command
        self.record_steps = False

    @property
    def goal_reached(self) -> bool:
        return self.outcome is Outcome.SUCCESSFUL

    # --- commands ---------------------------------------------------------------
    def validate(self, trajectory: JointTrajectory) -> Interpolator:
        """The checks of `command` without executing: an Interpolator, or CommandRejected."""
        if not self.enabled:
            raise CommandRejected("joint_trajectory_controller is inactive: another controller "
                                  "owns the arm (switch back first)")
        return self._validate(trajectory)

    def command(self, trajectory: JointTrajectory, start_time: float | None = None,
                tolerances: Tolerances | None = None) -> int:
        """Accept a whole trajectory (or raise CommandRejected); return its trajectory_id.

        `start_time` is the sim time of t=0 (a header stamp); default: now.
        `tolerances`: this trajectory's (a FollowJointTrajectory goal's); default: the
        controller's `default_tolerances`.
        """
        try:
            interp = self.validate(trajectory)
        except CommandRejected as err:
            self.error_message = f"rejected: {err.reason}"
            raise
        self._interp = interp
        now = self.robot.world.time
        self._start = now if start_time is None or start_time <= 0 else max(now, float(start_time))
        self._traj_time = now - self._start          # <= 0: a future start waits
        self._last_update = None
        self._tolerances = tolerances or self.default_tolerances
        self.trajectory_id += 1
        self.outcome = Outcome.EXECUTING
        self.error_message = ""
        return self.trajectory_id

    def stop(self) -> None:
        """Abandon any trajectory and hold the measured position."""
        if self._interp is not None:
            self.outcome = Outcome.STOPPED
        if not self.enabled:
            self.resync()
            return
        self._hold_measured()

    def resync(self) -> None:
        """Make the command equal the measured state (after a teleport, a reset or a switch to
        another controller): any running trajectory ends STOPPED."""
        if self._interp is not None:
            self.outcome = Outcome.STOPPED
        self._interp = None
        self._desired = self._measured()
        self._desired_vel = np.zeros(len(self.joint_names))

    # --- the per-step update ---------------------------------------------------
    def update(self, now: float) -> None:
        """Called by the World before each physics step."""
        if not self.enabled:
            return
        if self.record_steps:
            self._feedback = self._measured()
        interp = self._interp
        if interp is None:
            self._last_update = now
            return                        # holding: the motors keep the last command
        if self._last_update is not None:
            dt = now - self._last_update
            # before the start time the clock runs unscaled: it counts down to the start
            self._traj_time += dt * (self.speed_scaling if self._traj_time >= 0.0 else 1.0)
        self._last_update = now
        t = self._traj_time
        if t < 0.0:                       # a future start time: keep holding
            return
        self._desired, velocity = interp.sample(t)
        self._desired_vel = velocity * self.speed_scaling
        self._send(self._desired, self._desired_vel)
        self._judge(t, interp.duration)

    def _judge(self, t: float, duration: float) -> None:
        """JTC's checks after a step's command: path tolerance while moving, goal after."""
        tol = self._tolerances
        if t < duration:
            if not tol.path.any():
                return
            err = np.abs(self._measured() - self._desired)
            over = np.nonzero((tol.path > 0) & (err > tol.path))[0]
            if over.size:
                j = int(over[0])
                self._abort(Outcome.PATH_TOLERANCE_VIOLATED,
                            f"path tolerance violated: {self.joint_names[j]} {err[j]:.4f} from the "
                            f"desired position (tolerance {tol.path[j]:g}) at t={t:.3f} s")
            return
        q, dq = self._measured_state()
        err = np.abs(q - self._desired)
        outside = (tol.goal > 0) & (err > tol.goal)
        moving = np.abs(dq) > tol.stopped_velocity if tol.stopped_velocity > 0 else np.zeros(len(q), bool)
        if not outside.any() and not moving.any():
            self.outcome = Outcome.SUCCESSFUL
            self._interp = None           # hold the last point
        elif tol.goal_time > 0 and t > duration + tol.goal_time:
            j = int(np.argmax(np.where(tol.goal > 0, err / np.where(tol.goal > 0, tol.goal, 1.0), 0.0)))
            why = (f"{self.joint_names[j]} off by {err[j]:.4f} (tolerance {tol.goal[j]:g})" if outside.any()
                   else f"{self.joint_names[int(np.argmax(np.abs(dq)))]} still moving at "
                        f"{np.max(np.abs(dq)):.3f}/s")
            self._abort(Outcome.GOAL_TOLERANCE_VIOLATED,
                        f"goal tolerance not reached {tol.goal_time:g} s after the end: {why}")

    def _abort(self, outcome: Outcome, message: str) -> None:
        self.outcome = outcome
        self.error_message = message
        self._hold_measured()

    def _hold_measured(self) -> None:
        self._interp = None
        self._desired = self._measured()
        self._desired_vel = np.zeros(len(self.joint_names))
        self._send(self._desired, self._desired_vel)

    # --- reporting ----------------------------------------------------------------
    @property
    def active(self) -> bool:
        return self._interp is not None

    def step_record(self) -> tuple[list, list]:
        """(reference, feedback) of the last control step: the positions commanded in it and
        the positions measured just before that command was applied."""
        return self._desired.tolist(), self._feedback.tolist()

    def desired_state(self) -> tuple[np.ndarray, np.ndarray]:
        """The commanded positions and velocities of the last step."""
        return self._desired.copy(), self._desired_vel.copy()

    def state(self) -> ControllerState:
        actual = self._measured()
        remaining = 0.0
        if self._interp is not None:
            remaining = max(0.0, self._interp.duration - self._traj_time)
        return ControllerState(list(self.joint_names), self._desired.tolist(), actual.tolist(),
                               (self._desired - actual).tolist(), self.active, self.goal_reached,
                               self.error_message, self.trajectory_id, remaining, self.outcome,
                               self.speed_scaling)

    # --- internals ----------------------------------------------------------------
    def _measured(self) -> np.ndarray:
        return self._measured_state()[0]

    def _measured_state(self) -> tuple[np.ndarray, np.ndarray]:
        states = p.getJointStates(self.robot.body_id, self._idx, physicsClientId=self.robot.world.client)
        return np.array([s[0] for s in states]), np.array([s[1] for s in states])

    def _send(self, positions, velocities) -> None:
        p.setJointMotorControlArray(self.robot.body_id, self._idx, p.POSITION_CONTROL,
                                    targetPositions=list(positions), targetVelocities=list(velocities),
                                    forces=self._forces, physicsClientId=self.robot.world.client)

    def _validate(self, traj: JointTrajectory) -> Interpolator:
        names = list(traj.joint_names)
        if len(set(names)) != len(names):
            raise CommandRejected(f"duplicate joint names in {names}")
        unknown = [n for n in names if n not in self.joint_names]
        if unknown:
            raise CommandRejected(f"unknown joint names {unknown}; this controller has {self.joint_names}")
        missing = [n for n in self.joint_names if n not in names]
        if missing:
            raise CommandRejected(f"missing joints {missing}; a trajectory must name all of {self.joint_names}")
        points = list(traj.points)
        if not points:
            raise CommandRejected("Empty trajectory received.")
        order = [names.index(n) for n in self.joint_names]      # message order -> controller order
        n = len(names)
        with_vel = [len(pt.velocities) > 0 for pt in points]
        with_acc = [len(pt.accelerations) > 0 for pt in points]
        if any(with_vel) and not all(with_vel):
            raise CommandRejected("velocities given for some points but not all")
        if any(with_acc) and not all(with_acc):
            raise CommandRejected("accelerations given for some points but not all")
        if any(with_acc) and not any(with_vel):
            raise CommandRejected("accelerations need velocities too")
        times, pos, vel, acc = [], [], [], []
        last_t = -1.0
        for k, pt in enumerate(points):
            t = float(pt.time_from_start)
            if not np.isfinite(t) or t < 0:
                raise CommandRejected(f"point {k}: time_from_start {t} is not a finite non-negative number")
            if t <= last_t:
                raise CommandRejected(f"point {k}: time_from_start {t} is not after the previous point ({last_t})")
            last_t = t
            for field_name, values, used in (("positions", pt.positions, True),
                                              ("velocities", pt.velocities, with_vel[k]),
                                              ("accelerations", pt.accelerations, with_acc[k])):
                if used and len(values) != n:
                    raise CommandRejected(f"point {k}: {len(values)} {field_name} for {n} joints")
                if used and not is_finite_list(values):
                    raise CommandRejected(f"point {k}: {field_name} contain NaN or inf")
            q = np.asarray(pt.positions, float)[order]
            bad = np.nonzero((q < self._lower - LIMIT_MARGIN) | (q > self._upper + LIMIT_MARGIN))[0]
            if bad.size:
                j = int(bad[0])
                raise CommandRejected(f"point {k}: {self.joint_names[j]}={q[j]:.4f} outside limits "
                                      f"[{self._lower[j]:.4f}, {self._upper[j]:.4f}]")
            times.append(t)
            pos.append(q)
            if with_vel[k]:
                vel.append(np.asarray(pt.velocities, float)[order])
            if with_acc[k]:
                acc.append(np.asarray(pt.accelerations, float)[order])
        # Prepend the current command as the t=0 start state, unless point 0 is at t=0.
        if times[0] > 0.0:
            times.insert(0, 0.0)
            pos.insert(0, self._desired.copy())
            if vel:
                vel.insert(0, self._desired_vel.copy())
            if acc:
                acc.insert(0, np.zeros(n))
        return Interpolator(times, pos, vel or None, acc or None)
