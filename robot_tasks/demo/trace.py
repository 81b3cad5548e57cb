"""A demonstration's per-step trace: (state, action) pairs from the controllers' own record.

The robot's control loop publishes, once per control step, what each controller commanded
and what it measured just before applying it (robot_tasks_interfaces/JointControllerState:
the arm's joint_trajectory_controller and the fingers' gripper_controller, the same stamp
for both in one step). A demonstration pairs them step by step:

    state_t  = measured  [arm q (7), fingers (2)]   just before the command of step t
    action_t = commanded [arm target (7), finger target (2)]  applied in step t

so `state` and `action` are (T, 9) arrays with one stamp per row. Steps for which only
one of the two controllers reported (a message lost, the start or the end of the
recording) are dropped, never filled in.

    trace = Trace.from_records(arm_records, gripper_records)
    trace.check()                          # TraceError naming what is wrong
    trace.window(t0, t1).action[:, :7]     # the arm commands of one phase

Pure numpy; `robot_tasks.demo.trace_recorder` collects the records from the topics.
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np

from robot_tasks.errors import RobotTasksError

ARM_DOF, FINGERS = 7, 2


def control_periods(stamps) -> np.ndarray:
    """For each pair of neighbouring stamps (sorted), how many control periods lie between
    them: 1 where no step is missing, k where k - 1 steps are. The period is the median gap,
    since nearly all neighbouring rows are one step apart."""
    gaps = np.diff(np.asarray(stamps, dtype=float))
    if len(gaps) == 0:
        return np.zeros(0)
    return np.maximum(1.0, np.rint(gaps / float(np.median(gaps))))


def missing_steps(stamps) -> int:
    """Control steps between the first and the last of these sorted stamps that have none."""
    return int((control_periods(stamps) - 1).sum())


class TraceError(RobotTasksError, ValueError):
    """A trace that breaks one of its invariants; the message says which."""


@dataclass(frozen=True)
class StepRecord:
    """One controller's report of one control step."""

    stamp_ns: int
    reference: tuple
    feedback: tuple


@dataclass(frozen=True)
class Trace:
    stamps: np.ndarray       # (T,) seconds
    state: np.ndarray        # (T, 9)
    action: np.ndarray       # (T, 9)

    @classmethod
    def from_records(cls, arm: list, gripper: list) -> "Trace":
        """Pair arm and gripper records with the same stamp, in time order."""
        fingers = {r.stamp_ns: r for r in gripper}
        rows = sorted((r.stamp_ns, r, fingers[r.stamp_ns]) for r in arm if r.stamp_ns in fingers)
        if not rows:
            return cls(np.zeros(0), np.zeros((0, ARM_DOF + FINGERS)), np.zeros((0, ARM_DOF + FINGERS)))
        stamps = np.array([ns for ns, _, _ in rows], dtype=np.int64) * 1e-9
        state = np.array([list(a.feedback) + list(g.feedback) for _, a, g in rows], dtype=float)
        action = np.array([list(a.reference) + list(g.reference) for _, a, g in rows], dtype=float)
        return cls(stamps, state, action)

    def __len__(self) -> int:
        return len(self.stamps)

    def window(self, start: float, end: float) -> "Trace":
        """The rows with start <= stamp < end (seconds). Half-open, because a phase window
        ends at the start of the tick that began the next phase (tree_status is stamped with
        its tick's start), and that tick's command (the release after the transport) may be
        carried out in the very step stamped `end`."""
        keep = (self.stamps >= start) & (self.stamps < end)
        return Trace(self.stamps[keep], self.state[keep], self.action[keep])

    def check(self, motion_threshold: float = 1e-4) -> dict:
        """The invariants of a usable demonstration; returns them as numbers, raises
        TraceError on the first one broken: equal lengths, shape (T, 9), finite values,
        increasing stamps, and a nonzero command/state difference while the arm moves. The
        control steps missing from the record are counted, not refused (`missing_steps`)."""
        n, width = len(self.stamps), ARM_DOF + FINGERS
        if not (len(self.state) == len(self.action) == n):
            raise TraceError(f"lengths differ: {n} stamps, {len(self.state)} states, {len(self.action)} actions")
        if n == 0:
            raise TraceError("the trace is empty: no control step had both controllers' reports")
        for name, array in (("state", self.state), ("action", self.action)):
            if array.shape != (n, width):
                raise TraceError(f"{name} has shape {array.shape}, expected ({n}, {width})")
            if not np.all(np.isfinite(array)):
                raise TraceError(f"{name} has NaN or inf at rows {np.nonzero(~np.isfinite(array).all(axis=1))[0][:5]}")
        if np.any(np.diff(self.stamps) <= 0):
            raise TraceError("stamps do not strictly increase")
        moving = np.abs(np.diff(self.action[:, :ARM_DOF], axis=0)).max(axis=1) > motion_threshold
        gap = np.abs(self.action[1:, :ARM_DOF] - self.state[1:, :ARM_DOF]).max(axis=1)
        if not moving.any():
            raise TraceError("the arm command never changes: no motion in the trace")
        if not np.any(gap[moving] > 0.0):
            raise TraceError("command and state never differ while the arm moves (a copied signal?)")
        return {"length": n, "shape": [n, width], "moving_steps": int(moving.sum()),
                "max_command_state_gap_moving": float(gap[moving].max()),
                "duration_s": float(self.stamps[-1] - self.stamps[0]),
                "missing_steps": missing_steps(self.stamps)}      # control steps between the first and last row with no row

    def arm_steps(self) -> np.ndarray:
        """Per row after the first, how far the arm command moved per control step (inf-norm
        over the joints, rad). Rows k control periods apart (steps dropped from the record, see
        the module docstring) share their change over the k steps the controller took; the
        period is the median stamp difference."""
        if len(self) < 2:
            return np.zeros(0)
        return np.abs(np.diff(self.action[:, :ARM_DOF], axis=0)).max(axis=1) / control_periods(self.stamps)

    def max_arm_step(self) -> float:
        """Largest arm command change per control step (inf-norm, rad; arm_steps)."""
        steps = self.arm_steps()
        return float(steps.max()) if len(steps) else 0.0

    def save(self, path: Path) -> Path:
        np.savez_compressed(path, stamps=self.stamps, state=self.state, action=self.action)
        return Path(path)

    @classmethod
    def load(cls, path: Path) -> "Trace":
        with np.load(path) as data:
            return cls(data["stamps"], data["state"], data["action"])
