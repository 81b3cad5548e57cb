"""Every trajectory an arm server sent in an episode, read back from the run folder and
checked against the arm's joint limits.

A trajectory is only as smooth as the controller's interpolation between its points makes
it (robot_tasks.control.trajectory_check), so the check works on what was actually sent:
the arm server publishes a copy of each trajectory it gives the controller on
`~/sent_trajectory` (robot_tasks/nodes/arm_server/node.py), and every demo with an arm
records that topic of each of its arm servers into the run's bag/ (sent_trajectory_topic).
From a finished run folder, for the arm server node `server` ("arm_server"; the pyramid's
are "arm_server_1" and "arm_server_2"):

    trajectories = read_sent_trajectories(run_dir, server)   # [TimedTrajectory], in send order
    limits = server_limits(run_dir, server)                  # its arm's limits, as it loaded them
    audit = audit_trajectories(trajectories, limits)
    audit.violations()          # [] when no joint exceeded any limit
    audit.worst("jerk")         # (ratio to the limit, trajectory index, joint)

The limits are the robot's own: the URDF's velocity merged with the limits file the run's
arm_server read (its `limits_file`, '' = config/limits/<robot>.yaml), unscaled. A goal's
`velocity_scaling` and the server's `acceleration_scaling` keep the time-optimal timing
further inside them; the recording does not carry a goal's scaling, so the check holds
every trajectory to the limits the robot itself must never exceed.

BOUNDED MoveToPose goals are exempt from the acceleration and jerk limits. Their schedule
is part of the goal (equal joint steps of at most `max_dq` per control step, so a grasped
object is carried without slipping), sent as positions only: the controller interpolates
linearly, and each step starts at full speed. The server sends no other trajectory without
velocities, so "positions only" is how the check recognises a BOUNDED trajectory; its
velocity is still checked.
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import yaml

from robot_tasks.tasks.episode import sent_trajectory_topic

# robot_tasks.control (Pinocchio, toppra) is imported where it is used: the CLI should start
# without it
ARM_SERVER = "arm_server"


def _seconds(duration) -> float:
    return duration.sec + duration.nanosec * 1e-9


def read_sent_trajectories(run_dir: Path, server: str = ARM_SERVER) -> list:
    """The recorded trajectories arm server node `server` sent, from the run's bag/, in the
    order they were sent (rosbags reads the MCAP bag without ROS)."""
    from rosbags.highlevel import AnyReader

    from robot_tasks.control import TimedTrajectory

    topic = "/" + sent_trajectory_topic(server)[0]
    trajectories = []
    with AnyReader([Path(run_dir) / "bag"]) as reader:
        connections = [c for c in reader.connections if c.topic == topic]
        if not connections:      # (an empty selection would read every topic)
            return []
        for connection, _, raw in reader.messages(connections=connections):
            msg = reader.deserialize(raw, connection.msgtype)
            points = msg.points
            trajectories.append(TimedTrajectory(
                list(msg.joint_names), [list(p.positions) for p in points],
                [list(p.velocities) for p in points], [_seconds(p.time_from_start) for p in points],
                [list(p.accelerations) for p in points]))
    return trajectories


def arm_server_parameters(run_dir: Path, server: str = ARM_SERVER) -> dict:
    """Arm server `server`'s parameters in the run's copy of its bringup YAML (params/)."""
    for path in sorted((Path(run_dir) / "params").glob("*.yaml")):
        document = yaml.safe_load(path.read_text()) or {}
        section = document.get(server)
        if isinstance(section, dict):
            return dict(section.get("ros__parameters") or {})
    raise FileNotFoundError(f"{run_dir}/params: no bringup YAML with an '{server}' section")


def server_limits(run_dir: Path, server: str = ARM_SERVER):
    """The JointLimits arm server `server` timed against: its robot's URDF velocities
    merged with its limits file (unscaled)."""
    from robot_tasks.control import (
        ArmKinematics,
        JointLimits,
        default_limits_path,
        load_limits_file,
        panda_spec,
        ur10_spec,
    )

    params = arm_server_parameters(run_dir, server)
    robot = params.get("robot", "panda")
    kin = ArmKinematics.from_spec({"panda": panda_spec, "ur10": ur10_spec}[robot]())
    limits_file = params.get("limits_file") or default_limits_path(robot)
    return JointLimits.combine(kin.joint_names, kin.velocity_limits, load_limits_file(limits_file))


def is_bounded(trajectory) -> bool:
    """A BOUNDED goal's trajectory: positions only (see the module docstring)."""
    return not any(len(v) for v in trajectory.velocities)


@dataclass
class EpisodeAudit:
    """One LimitReport per trajectory (ratios to the limits, 1.0 = at a limit)."""

    reports: list        # LimitReport, in send order
    bounded: list        # bool per trajectory: only its velocity counts

    def ratios(self, kind: str) -> list:
        """(ratio, trajectory index, joint) of each trajectory the `kind` applies to."""
        rows = []
        for i, (report, bounded) in enumerate(zip(self.reports, self.bounded)):
            if bounded and kind != "velocity":
                continue
            values = getattr(report, kind)
            j = int(values.argmax())
            rows.append((float(values[j]), i, report.joint_names[j]))
        return rows

    def worst(self, kind: str):
        """(ratio, trajectory index, joint) of the largest `kind` ratio; (0.0, -1, "") if none."""
        return max(self.ratios(kind), default=(0.0, -1, ""))

    def violations(self, tolerance: float = 1e-6) -> list:
        """(kind, ratio, trajectory index, joint) of every trajectory over a limit."""
        from robot_tasks.control.joint_limits import KINDS

        return [(kind, *row) for kind in KINDS for row in self.ratios(kind) if row[0] > 1.0 + tolerance]

    @property
    def interpolations(self) -> set:
        return {r.interpolation for r, bounded in zip(self.reports, self.bounded) if not bounded}


def audit_trajectories(trajectories: list, limits, **check_options) -> EpisodeAudit:
    """Check each trajectory with check_trajectory against `limits` (a JointLimits);
    `check_options` go to it (control_period: a jump between segments counts over one
    control step, 1 ms by default, a Franka's, the strictest controller here)."""
    from robot_tasks.control import check_trajectory

    reports = [check_trajectory(t, limits, **check_options) for t in trajectories]
    return EpisodeAudit(reports, [is_bounded(t) for t in trajectories])
