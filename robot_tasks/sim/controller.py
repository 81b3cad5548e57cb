"""A joint trajectory controller that behaves like ros2_control's joint_trajectory_controller.

* `command(trajectory)` validates the whole trajectory first and raises CommandRejected
  with a reason (unknown or missing joints, wrong lengths, NaN/inf, positions beyond the
  URDF limits, times not strictly increasing).  A rejected command changes nothing.
* An accepted trajectory starts at the current sim time from the current *command*
  (desired position and velocity), so preempting a moving arm is smooth.
* After the last point the controller holds it.  `goal_reached` turns true once every
  joint is within `goal_tolerance` of the last point; if that has not happened
  `goal_time` seconds after the end, the trajectory ends with an `error`.
* `stop()` holds the current measured position (like cancelling a goal).
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
from typing import Sequence

import numpy as np
import pybullet as p

from robot_tasks.sim.errors import CommandRejected
from robot_tasks.sim.trajectory import Interpolator, JointTrajectory, is_finite_list

LIMIT_MARGIN = 1e-4   # rad or m; rounding slack when a point sits exactly on a limit


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


class JointTrajectoryController:
    """Executes whole joint trajectories on a Robot's arm joints."""

    def __init__(self, robot, joint_names: Sequence[str] | None = None,
                 goal_tolerance: float = 0.01, goal_time: float = 1.0):
        self.robot = robot
        self.joint_names = list(joint_names or robot.arm_joint_names)
        self._idx = robot.indices(self.joint_names)
        self._lower = np.array([robot.limits[n].lower for n in self.joint_names])
        self._upper = np.array([robot.limits[n].upper for n in self.joint_names])
        self._forces = [robot.limits[n].effort for n in self.joint_names]
        self.goal_tolerance = float(goal_tolerance)
        self.goal_time = float(goal_time)
        self._interp: Interpolator | None = None
        self._start = 0.0
        self.trajectory_id = 0
        self.goal_reached = False
        self.error_message = ""
        self.enabled = True           # False while another controller owns the joints
        self.resync()
        self._feedback = self._desired.copy()   # measured just before the last step's command
        self.record_steps = False

    # --- commands ---------------------------------------------------------------
    def command(self, trajectory: JointTrajectory, start_time: float | None = None) -> int:
        """Accept a whole trajectory (or raise CommandRejected); return its trajectory_id.

        `start_time` is the sim time of t=0 (a header stamp); default: now.
        """
        try:
            if not self.enabled:
                raise CommandRejected("joint_trajectory_controller is inactive: a compliant "
                                      "controller owns the arm (switch back first)")
            interp = self._validate(trajectory)
        except CommandRejected as err:
            self.error_message = f"rejected: {err.reason}"
            raise
        self._interp = interp
        now = self.robot.world.time
        self._start = now if start_time is None or start_time <= 0 else max(now, float(start_time))
        self.trajectory_id += 1
        self.goal_reached = False
        self.error_message = ""
        return self.trajectory_id

    def stop(self) -> None:
        """Abandon any trajectory and hold the measured position."""
        if not self.enabled:
            self.resync()
            return
        self._interp = None
        self._desired = self._measured()
        self._desired_vel = np.zeros(len(self.joint_names))
        self._send(self._desired, self._desired_vel)

    def resync(self) -> None:
        """Make the command equal the measured state (after a teleport or reset)."""
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
            return                        # holding: the motors keep the last command
        t = now - self._start
        if t < 0.0:                       # a future start time: keep holding
            return
        self._desired, self._desired_vel = interp.sample(t)
        self._send(self._desired, self._desired_vel)
        if t >= interp.duration:
            # Settling phase: success once within tolerance, failure after goal_time.
            if np.max(np.abs(self._measured() - self._desired)) <= self.goal_tolerance:
                self.goal_reached = True
                self._interp = None
            elif t >= interp.duration + self.goal_time:
                err = np.abs(self._measured() - self._desired)
                worst = int(np.argmax(err))
                self.error_message = (f"goal tolerance {self.goal_tolerance} not reached "
                                      f"{self.goal_time} s after the end: {self.joint_names[worst]} "
                                      f"off by {err[worst]:.4f}")
                self._interp = None

    # --- reporting ----------------------------------------------------------------
    @property
    def active(self) -> bool:
        return self._interp is not None

    def step_record(self) -> tuple[list, list]:
        """(reference, feedback) of the last control step: the positions commanded in it and
        the positions measured just before that command was applied."""
        return self._desired.tolist(), self._feedback.tolist()

    def state(self) -> ControllerState:
        actual = self._measured()
        remaining = 0.0
        if self._interp is not None:
            remaining = max(0.0, self._start + self._interp.duration - self.robot.world.time)
        return ControllerState(list(self.joint_names), self._desired.tolist(), actual.tolist(),
                               (self._desired - actual).tolist(), self.active, self.goal_reached,
                               self.error_message, self.trajectory_id, remaining)

    # --- internals ----------------------------------------------------------------
    def _measured(self) -> np.ndarray:
        states = p.getJointStates(self.robot.body_id, self._idx, physicsClientId=self.robot.world.client)
        return np.array([s[0] for s in states])

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
            raise CommandRejected("trajectory has no points")
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
