"""The franka_press demo as a DemoTask: a tree presses a tilted wall; graded on force and pose over time.

    robot-tasks demo franka_press --out runs/

The episode runner (runner.py) runs the press as it runs every task: the nodes of
config/franka_press.yaml (sim, arm_server, compliance_server, tree_executor) on a fresh
ROS_DOMAIN_ID over loopback, an ExecuteTree goal for FrankaPress (trees/franka_press.xml:
approach with a trajectory, guarded touch with "osc", press 10 N with "hybrid_press" while
sliding to three poses in the wall's plane, lift off, switch back, retract), its moves
printed as they start. What is the press's own is how it is graded: not on where things
end but on what happened at every step. So PRESS has a follower, PressFollower, fed the
topics PRESS.follow_topics names (the runner's watcher subscribes to them):

- per sim step published (100 Hz), the contact normal force between robot and wall and the
  tool pose (the sim's ground truth, for grading only), the Franka's external wrench
  (franka_robot_state_broadcaster, best effort) and which steps a compliant controller
  drove (its current_pose), and every target compliance_server sent
  (`<controller>/target_frame`: what the controller was told);
- tree_status, with each tick's own stamp: which move ran when; the last SETTLE_WINDOW s of
  each slide's hold (the target at rest) are its steady state.

PRESS.grade_followed (grade_press) turns that recording into report.json's "press" section
(force mean and standard deviation over the steady states, per target: force, in-plane
error, the target), press.png (force, in-plane position and error against sim time) and
press.csv (the recording behind both); the follower adds "moves" (every node's sim-time
span). Exit code 0 when the tree succeeded and every steady-state sample is within
FORCE_TOLERANCE of 10 N with an in-plane error below ERROR_LIMIT.

This module is in the demo layer, not in robot_tasks/tasks/press/, because press.png is
drawn with the demo's line chart (press_plot.py) and the topic names are the ROS layer's
(robot_tasks.controller_topics): a task package imports neither.
"""
from __future__ import annotations

import bisect
import threading
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from robot_tasks.controller_topics import (
    CONTACT_TRUTH_TOPIC,
    CURRENT_POSE_TOPIC,
    EXTERNAL_WRENCH_TOPIC,
    TARGET_FRAME_TOPIC,
    TIP_TRUTH_TOPIC,
    under,
)
from robot_tasks.tasks.episode import DemoTask, Follower, FollowTopic
from robot_tasks.tasks.errors import TaskError

TREE_ID = "FrankaPress"
SLIDES = ("slide_1", "slide_2", "slide_3")
# the tree's moves, printed as they start (CompliantMove, SwitchController and MoveToPose leaves)
PHASES = ("approach", "touch", "press", *SLIDES, "lift_off", "to_trajectory", "retract")
FORCE = 10.0
FORCE_TOLERANCE = 1.0      # N
ERROR_LIMIT = 5e-3         # m, in-plane
SETTLE_WINDOW = 0.4        # s at the end of each slide's hold
TIMEOUT = 180.0            # wall s for the whole run unless the caller names one (~20-40 s needed)
ROBOT = "panda"
COMPLIANT = ("osc", "hybrid_press")       # the controllers FrankaPress commands

CONTACT = under(ROBOT, CONTACT_TRUTH_TOPIC)
TIP = under(ROBOT, TIP_TRUTH_TOPIC)
WRENCH = under(ROBOT, EXTERNAL_WRENCH_TOPIC)
CURRENT_POSES = tuple(under(ROBOT, CURRENT_POSE_TOPIC.format(controller=c)) for c in COMPLIANT)
TARGET_FRAMES = tuple(under(ROBOT, TARGET_FRAME_TOPIC.format(controller=c)) for c in COMPLIANT)
STATUS = "tree_status"
FOLLOW_TOPICS = (
    FollowTopic(CONTACT, "geometry_msgs/msg/WrenchStamped"),
    FollowTopic(TIP, "geometry_msgs/msg/PoseStamped"),
    # franka_robot_state_broadcaster publishes best effort: a reliable subscriber gets nothing
    FollowTopic(WRENCH, "geometry_msgs/msg/WrenchStamped", best_effort=True),
    *(FollowTopic(topic, "geometry_msgs/msg/PoseStamped") for topic in CURRENT_POSES + TARGET_FRAMES),
    FollowTopic(STATUS, "robot_tasks_interfaces/msg/TreeStatus", depth=100),
)


@dataclass
class PressRecord:
    """What the follower heard (the watcher's thread), read under `lock` when grading."""

    lock: threading.Lock = field(default_factory=threading.Lock)
    contact: dict = field(default_factory=dict)     # stamp ns -> world force (3)
    tip: dict = field(default_factory=dict)         # stamp ns -> world position (3)
    sensed: dict = field(default_factory=dict)      # stamp ns -> measured wrench's force, base axes (3)
    compliant: set = field(default_factory=set)     # stamps ns at which a compliant controller drove
    targets: dict = field(default_factory=dict)     # stamp ns -> commanded target position (3)
    spans: dict = field(default_factory=dict)       # node name -> [start, end] sim s
    sim_time: float = 0.0                           # the newest ground-truth sample's stamp, s


def _seconds(stamp) -> float:
    return stamp.sec + stamp.nanosec * 1e-9


def _key(stamp) -> int:
    return stamp.sec * 1_000_000_000 + stamp.nanosec


class PressFollower(Follower):
    """The press's follower: every message of FOLLOW_TOPICS into one PressRecord.

    The runner's watcher calls on_message(topic, message) from its one thread; grade_press
    reads the record after the run. Node status changes come through on_message too (the
    tree_status topic whole), not on_change: a slide's window must close at its own tick's
    stamp, before the lift-off's first step, and /clock may have moved on by then.
    """

    def __init__(self):
        self.record = PressRecord()
        self.files: dict = {}        # report entries of the files grade_press wrote (press.png)
        self._handlers = {CONTACT: self._on_contact, TIP: self._on_tip, WRENCH: self._on_wrench,
                          STATUS: self._on_status,
                          **{topic: self._on_current_pose for topic in CURRENT_POSES},
                          **{topic: self._on_target for topic in TARGET_FRAMES}}

    def on_change(self, sim_time, change):
        """Nothing: the changes come with their tick's stamp through on_message (see above)."""

    def on_message(self, topic: str, msg) -> None:
        self._handlers[topic](msg)

    def summary(self) -> dict:
        """For report.json: every node's [start, end] in sim s ("moves"), and the plot's name."""
        with self.record.lock:
            moves = {name: [round(v, 3) if v is not None else None for v in span]
                     for name, span in self.record.spans.items()}
        return {"moves": moves, **self.files}

    def _on_contact(self, msg):
        f = msg.wrench.force
        with self.record.lock:
            self.record.contact[_key(msg.header.stamp)] = (f.x, f.y, f.z)
            self.record.sim_time = max(self.record.sim_time, _seconds(msg.header.stamp))

    def _on_tip(self, msg):
        p = msg.pose.position
        with self.record.lock:
            self.record.tip[_key(msg.header.stamp)] = (p.x, p.y, p.z)

    def _on_wrench(self, msg):
        f = msg.wrench.force
        with self.record.lock:
            self.record.sensed[_key(msg.header.stamp)] = (f.x, f.y, f.z)

    def _on_current_pose(self, msg):
        with self.record.lock:
            self.record.compliant.add(_key(msg.header.stamp))

    def _on_target(self, msg):
        p = msg.pose.position
        with self.record.lock:
            self.record.targets[_key(msg.header.stamp)] = (p.x, p.y, p.z)

    def _on_status(self, msg):
        rec = self.record
        t = _seconds(msg.header.stamp) or rec.sim_time     # an unstamped tick: the newest sample's time
        with rec.lock:
            for change in msg.changes:
                if change.status == "RUNNING":
                    rec.spans[change.name] = [t, None]
                elif change.name in rec.spans and change.previous_status == "RUNNING":
                    rec.spans[change.name][1] = t


def commanded(targets: dict, keys) -> list:
    """For each stamp of `keys`, the newest target sent at or before it (None before the first)."""
    stamps = sorted(targets)
    out = []
    for key in keys:
        k = bisect.bisect_right(stamps, key)
        out.append(targets[stamps[k - 1]] if k else None)
    return out


def press_log(record: PressRecord, wall):
    """The recording as a PressLog in the wall frame (phase k = SLIDES[k], -1 otherwise).

    A step's target is the newest one compliance_server had sent by then while a compliant
    controller drove the arm, and the tool itself while the trajectory controller did."""
    from robot_tasks.control.compliance import along_normal, to_frame
    from robot_tasks.sim.press_episode import PressLog

    log = PressLog()
    with record.lock:
        keys = sorted(set(record.contact) & set(record.tip) & set(record.sensed))
        spans = {k: v for k, v in record.spans.items() if k in SLIDES and v[1] is not None}
        targets = commanded(record.targets, keys)
        rows = [(k, record.contact[k], record.tip[k], record.sensed[k],
                 target if k in record.compliant and target is not None else record.tip[k])
                for k, target in zip(keys, targets)]
    previous = None
    for key, contact, tip, sensed, target in rows:
        t = key * 1e-9
        target_in_wall = to_frame(wall, target)
        phase = next((SLIDES.index(n) for n, (a, b) in spans.items() if a <= t <= b), -1)
        log.time.append(t)
        log.contact_force.append(along_normal(wall, contact))
        log.sensed_force.append(along_normal(wall, sensed))
        log.tip.append(to_frame(wall, tip))
        log.target.append(target_in_wall[:2])
        log.phase.append(phase)
        log.holding.append(previous is not None and np.allclose(target_in_wall, previous, atol=1e-7))
        previous = target_in_wall
    return log


def grade(log) -> dict:
    """Steady-state force and in-plane error per slide, and over all of them."""
    a = log.arrays()
    per_target, forces = [], []
    for k, name in enumerate(SLIDES):
        settled = log.settled(k, last=SETTLE_WINDOW) if len(a["time"]) else np.zeros(0, bool)
        if not settled.any():
            per_target.append({"move": name, "ok": False, "reason": "no steady state recorded"})
            continue
        force = a["contact_force"][settled]
        error = np.linalg.norm(a["tip"][settled, :2] - a["target"][settled], axis=1)
        forces.append(force)
        per_target.append({
            "move": name, "target_in_wall_m": [round(float(v), 4) for v in a["target"][settled][-1]],
            "samples": int(settled.sum()), "force_mean_n": round(float(force.mean()), 3),
            "force_std_n": round(float(force.std()), 3),
            "force_min_n": round(float(force.min()), 3), "force_max_n": round(float(force.max()), 3),
            "in_plane_error_mean_mm": round(float(error.mean()) * 1000, 3),
            "in_plane_error_max_mm": round(float(error.max()) * 1000, 3),
            "ok": bool(np.all(np.abs(force - FORCE) < FORCE_TOLERANCE) and error.max() < ERROR_LIMIT)})
    everything = np.concatenate(forces) if forces else np.zeros(0)
    summary = {"force_mean_n": round(float(everything.mean()), 3) if everything.size else None,
               "force_std_n": round(float(everything.std()), 3) if everything.size else None,
               "touch_down_peak_n": round(float(a["contact_force"].max()), 2) if len(a["time"]) else None}
    return {"steady_state": summary, "targets": per_target,
            "ok": bool(per_target and all(t["ok"] for t in per_target))}


def write_press_csv(log, path: Path) -> Path:
    """The recording, one row per published sim step (wall frame, metres and newtons)."""
    a = log.arrays()
    columns = np.column_stack([a["time"], a["contact_force"], a["sensed_force"], a["tip"], a["target"],
                               a["phase"], a["holding"]])
    header = "time_s,contact_force_n,sensed_force_n,tip_x,tip_y,tip_z,target_x,target_y,phase,holding"
    np.savetxt(path, columns, delimiter=",", header=header, comments="", fmt="%.6f")
    return path


def grade_press(follower: PressFollower, run_dir: Path):
    """PRESS.grade_followed: the recording graded (report["press"]), press.csv and press.png."""
    from robot_tasks.sim.scenes.franka_press import wall_frame
    from robot_tasks.tasks.press.plot import draw_press

    log = press_log(follower.record, wall_frame())
    press = grade(log)
    if log.time:
        write_press_csv(log, run_dir / "press.csv")
        draw_press(log, run_dir / "press.png", title="franka_press demo (ROS): FrankaPress tree, "
                   "hybrid_press 10 N into the 45° wall, three in-plane poses")
        follower.files["plot"] = "press.png"
    steady = press["steady_state"]
    summary = (f"force {steady['force_mean_n']} ± {steady['force_std_n']} N; in-plane error max " +
               ", ".join(f"{t.get('in_plane_error_max_mm', '?')} mm" for t in press["targets"]))
    return "press", press, press["ok"], summary


def _no_disturbance(mode: str):
    # the catalog refuses every --disturb for franka_press first (its spec names none)
    raise TaskError(f"franka_press takes no disturbance, not {mode}")


def _not_on_poses(_poses, _first_poses, _counted):
    # the runner calls grade_followed instead: nothing ends anywhere worth grading here
    raise TaskError("franka_press is graded on its recording (grade_press), not on final poses")


PRESS = DemoTask(name="franka_press", tree_id=TREE_ID, phases=PHASES, counted="", counted_as="", recoveries={},
                 make_rule=_no_disturbance, grade=_not_on_poses, follow=PressFollower,
                 follow_topics=FOLLOW_TOPICS, grade_followed=grade_press, timeout=TIMEOUT)
